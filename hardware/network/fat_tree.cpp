// SPDX-License-Identifier: Apache-2.0
// XGFT construction from the configuration, link numbering and D-mod-K / random routing.
#include "hardware/network/fat_tree.hpp"

#include <limits>
#include <sstream>

#include "hardware/seeded_random.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

constexpr int kMaxLevels = 16;
constexpr std::int64_t kMaxLinks = std::numeric_limits<LinkId>::max();

std::string key_value(const runtime::Config& c, const char* key) {
  return strprintf("network.fat_tree.%s = %s (%s)", key,
                   c.text(std::string("network.fat_tree.") + key).c_str(),
                   c.origin(std::string("network.fat_tree.") + key).c_str());
}

std::string list_text(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// One value per level, or the default when the list is empty.
std::vector<int> per_level(const runtime::Config& c, const char* key, std::size_t h,
                           const std::vector<int>& fallback) {
  std::string full = std::string("network.fat_tree.") + key;
  std::vector<std::int64_t> v = c.integer_list(full);
  if (v.empty()) return fallback;
  if (v.size() != h)
    throw ConfigError(
        strprintf("%s = %s (%s): %zu values for a tree of %zu levels (the length "
                  "of network.fat_tree.down); give one value per level",
                  full.c_str(), list_text(v).c_str(), c.origin(full).c_str(), v.size(), h));
  return std::vector<int>(v.begin(), v.end());
}

// "[100Gbps, 200Gbps]" -> bytes/s per level; empty text -> network.link_bw everywhere, and a
// level given as 0bps -> network.link_bw (so --set network.link_bw still varies it).
std::vector<double> level_bandwidths(const runtime::Config& c, std::size_t h) {
  std::string text = c.text("network.fat_tree.level_bw");
  if (text.find_first_not_of(" \t") == std::string::npos)
    return std::vector<double>(h, c.bandwidth_Bps("network.link_bw"));
  auto fail = [&](const std::string& why) {
    throw ConfigError(key_value(c, "level_bw") + ": " + why);
  };
  if (text.front() != '[' || text.back() != ']')
    fail("expected a list of bandwidths, one per level, e.g. \"[100Gbps, 200Gbps]\"");
  std::vector<double> out;
  std::stringstream items(text.substr(1, text.size() - 2));
  std::string item;
  while (std::getline(items, item, ',')) {
    std::string why;
    auto bw = runtime::parse_quantity(item, runtime::Quantity::Bandwidth, &why);
    if (!bw) fail("\"" + item + "\": " + why);
    if (*bw <= 0) *bw = c.bandwidth_Bps("network.link_bw");  // "0bps": follow link_bw
    if (*bw > 1e15) fail("level " + std::to_string(out.size() + 1) + ": at most 8000Tbps");
    out.push_back(*bw);
  }
  if (out.size() != h)
    fail(strprintf("%zu bandwidths for a tree of %zu levels; give one per level", out.size(), h));
  return out;
}

}  // namespace

std::unique_ptr<FatTree> FatTree::from_config(const runtime::Config& c) {
  std::vector<std::int64_t> down = c.integer_list("network.fat_tree.down");
  if (down.empty() || down.size() > kMaxLevels)
    throw ConfigError(
        strprintf("network.fat_tree.down = %s (%s): a fat-tree has 1 to %d levels; "
                  "list the children of each switch from the leaves up, e.g. "
                  "[32, 16]",
                  list_text(down).c_str(), c.origin("network.fat_tree.down").c_str(), kMaxLevels));
  FatTreeShape s;
  s.down.assign(down.begin(), down.end());
  std::vector<int> full_up(down.size(), 1);
  for (std::size_t i = 1; i < down.size(); ++i) full_up[i] = s.down[i - 1];
  s.up = per_level(c, "up", down.size(), full_up);
  s.links = per_level(c, "links", down.size(), std::vector<int>(down.size(), 1));
  s.level_Bps = level_bandwidths(c, down.size());
  std::int64_t nodes = 1;
  for (int m : s.down) {
    nodes *= m;
    if (nodes > std::numeric_limits<int>::max())
      throw ConfigError(strprintf("network.fat_tree.down = %s (%s): more than 2^31 nodes",
                                  list_text(down).c_str(),
                                  c.origin("network.fat_tree.down").c_str()));
  }
  // Links per level: elements at level i-1 times w_i p_i, twice (up and down).
  std::int64_t total = 0, elements = nodes, M = 1, W = 1;
  for (std::size_t i = 0; i < s.down.size(); ++i) {
    total += 2 * elements * s.up[i] * s.links[i];
    if (total > kMaxLinks)
      throw ConfigError(
          "network.fat_tree.up and network.fat_tree.links: the tree would have more "
          "than 2^31 links; use fewer parents or parallel links");
    M *= s.down[i];
    W *= s.up[i];
    elements = nodes / M * W;
  }
  auto routing = c.text("network.fat_tree.routing") == "random" ? Routing::Random : Routing::DModK;
  return std::make_unique<FatTree>(s, routing);
}

FatTree::FatTree(const FatTreeShape& s, Routing routing)
    : h_(static_cast<int>(s.down.size())), routing_(routing), lv_(s.down.size() + 1) {
  SIMMPI_ASSERT(h_ >= 1 && h_ <= kMaxLevels && s.up.size() == s.down.size() &&
                    s.links.size() == s.down.size() && s.level_Bps.size() == s.down.size(),
                "fat-tree shape has one value per level (%d levels)", h_);
  nodes_ = 1;
  for (int m : s.down) nodes_ *= m;
  lv_[0] = Level{1, 1, 1, 1, 1, 1, 0, 0, 0};
  link_total_ = 0;
  std::int64_t dmodk_div = 1;
  for (int i = 1; i <= h_; ++i) {
    Level& L = lv_[static_cast<std::size_t>(i)];
    const Level& prev = lv_[static_cast<std::size_t>(i - 1)];
    auto j = static_cast<std::size_t>(i - 1);
    L.m = s.down[j];
    L.w = s.up[j];
    L.p = s.links[j];
    L.M = prev.M * L.m;
    L.W = prev.W * L.w;
    L.dmodk_div = dmodk_div;
    L.children = nodes_ / prev.M * prev.W;
    L.up_base = link_total_;
    L.bw_Bps = s.level_Bps[j];
    link_total_ += 2 * L.children * L.w * L.p;
    // The divisor counts parent switches, not parallel copies: destinations that share this
    // level's parent differ by multiples of W_i, and the next level must tell them apart.
    // Past the node count a larger divisor gives the same floor(d / W) = 0.
    dmodk_div = std::min(dmodk_div * L.w, nodes_ + 1);
  }
}

LinkId FatTree::link_id(int level, std::int64_t child, std::int64_t b, std::int64_t copy,
                        bool up) const {
  const Level& L = lv_[static_cast<std::size_t>(level)];
  std::int64_t within = (child * L.w + b) * L.p + copy;
  return static_cast<LinkId>(L.up_base + (up ? 0 : L.children * L.w * L.p) + within);
}

int FatTree::port(int level, int dst, std::uint64_t salt) const {
  const Level& L = lv_[static_cast<std::size_t>(level)];
  std::int64_t ports = L.w * L.p;
  if (routing_ == Routing::DModK) return static_cast<int>(dst / L.dmodk_div % ports);
  return static_cast<int>(
      below(mix64(salt, static_cast<std::uint64_t>(level)), static_cast<std::uint64_t>(ports)));
}

void FatTree::route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const {
  const int k = common_level(src, dst);
  int ports[kMaxLevels + 1];
  std::int64_t upper = src, lower = 0;
  for (int i = 1; i <= k; ++i) {
    const Level& L = lv_[static_cast<std::size_t>(i)];
    std::int64_t below_W = lv_[static_cast<std::size_t>(i - 1)].W;
    ports[i] = port(i, dst, ctx.salt);
    std::int64_t b = ports[i] % L.w;
    out.push_back(link_id(i, lower + below_W * upper, b, ports[i] / L.w, true));
    upper /= L.m;
    lower += b * below_W;
  }
  for (int i = k; i >= 1; --i) {
    const Level& L = lv_[static_cast<std::size_t>(i)];
    const Level& prev = lv_[static_cast<std::size_t>(i - 1)];
    std::int64_t b = lower / prev.W;
    lower %= prev.W;
    std::int64_t copy = routing_ == Routing::DModK
                            ? ports[i] / L.w
                            : static_cast<std::int64_t>(
                                  below(mix64(ctx.salt, static_cast<std::uint64_t>(kMaxLevels + i)),
                                        static_cast<std::uint64_t>(L.p)));
    out.push_back(link_id(i, lower + prev.W * (dst / prev.M), b, copy, false));
  }
}

double FatTree::link_bw_Bps(LinkId link) const {
  int i = 1;
  while (i < h_ && link >= lv_[static_cast<std::size_t>(i + 1)].up_base) ++i;
  return lv_[static_cast<std::size_t>(i)].bw_Bps;
}

std::vector<CapacityRun> FatTree::capacity_runs() const {
  std::vector<CapacityRun> runs;
  for (int i = 1; i <= h_; ++i) {
    const Level& L = lv_[static_cast<std::size_t>(i)];
    runs.push_back(CapacityRun{static_cast<LinkId>(L.up_base),
                               static_cast<LinkId>(2 * L.children * L.w * L.p), L.bw_Bps});
  }
  return runs;
}

std::string FatTree::link_name(LinkId link) const {
  int i = 1;
  while (i < h_ && link >= lv_[static_cast<std::size_t>(i + 1)].up_base) ++i;
  const Level& L = lv_[static_cast<std::size_t>(i)];
  const Level& prev = lv_[static_cast<std::size_t>(i - 1)];
  std::int64_t within = link - L.up_base;
  std::int64_t per_dir = L.children * L.w * L.p;
  bool up = within < per_dir;
  within %= per_dir;
  std::int64_t copy = within % L.p, b = within / L.p % L.w, child = within / L.p / L.w;
  std::int64_t lower = child % prev.W, upper = child / prev.W;
  std::int64_t parent = lower + b * prev.W + L.W * (upper / L.m);
  std::string c = i == 1 ? "n" + std::to_string(child)
                         : strprintf("s%d.%lld", i - 1, static_cast<long long>(child));
  std::string p = strprintf("s%d.%lld", i, static_cast<long long>(parent));
  std::string suffix = L.p > 1 ? "#" + std::to_string(copy) : "";
  return (up ? c + ">" + p : p + ">" + c) + suffix;
}

}  // namespace simmpi::hardware
