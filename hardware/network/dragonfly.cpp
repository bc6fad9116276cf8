// SPDX-License-Identifier: Apache-2.0
// Dragonfly shape checks, link numbering and minimal / Valiant / UGAL routing.
#include "hardware/network/dragonfly.hpp"

#include <algorithm>
#include <limits>

#include "hardware/seeded_random.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

double or_link_bw(const runtime::Config& c, const char* key) {
  double bw = c.bandwidth_Bps(key);
  return bw > 0 ? bw : c.bandwidth_Bps("network.link_bw");
}

}  // namespace

std::unique_ptr<Dragonfly> Dragonfly::from_config(const runtime::Config& c) {
  DragonflyShape s;
  s.a = static_cast<int>(c.integer("network.dragonfly.routers"));
  s.p = static_cast<int>(c.integer("network.dragonfly.terminals"));
  s.h = static_cast<int>(c.integer("network.dragonfly.global_links"));
  std::int64_t ports = static_cast<std::int64_t>(s.a) * s.h;
  std::int64_t g = c.integer("network.dragonfly.groups");
  if (g == 0) g = ports + 1;
  if (g > ports + 1)
    throw ConfigError(strprintf(
        "network.dragonfly.groups = %lld (%s): a dragonfly with routers (a) = %d and "
        "global_links (h) = %d has a*h = %lld global links per group, one for each other group, "
        "so at most a*h + 1 = %lld groups; lower groups or raise routers or global_links",
        static_cast<long long>(g), c.origin("network.dragonfly.groups").c_str(), s.a, s.h,
        static_cast<long long>(ports), static_cast<long long>(ports + 1)));
  if (g * s.a * s.p > std::numeric_limits<int>::max() / 2)
    throw ConfigError("network.dragonfly.*: groups x routers x terminals exceeds 2^30 nodes");
  s.g = static_cast<int>(g);
  s.terminal_Bps = c.bandwidth_Bps("network.link_bw");
  s.local_Bps = or_link_bw(c, "network.dragonfly.local_bw");
  s.global_Bps = or_link_bw(c, "network.dragonfly.global_bw");
  const std::string& r = c.text("network.dragonfly.routing");
  Routing routing = r == "valiant" ? Routing::Valiant
                    : r == "ugal"  ? Routing::Ugal
                                   : Routing::Minimal;
  return std::make_unique<Dragonfly>(s, routing);
}

Dragonfly::Dragonfly(const DragonflyShape& s, Routing routing) : s_(s), routing_(routing) {
  SIMMPI_ASSERT(s.a >= 1 && s.p >= 1 && s.g >= 1 && s.h >= 0 &&
                    static_cast<std::int64_t>(s.a) * s.h + 1 >= s.g,
                "dragonfly a=%d p=%d h=%d g=%d: g <= a*h + 1", s.a, s.p, s.h, s.g);
  copies_ = s.g > 1 ? s.a * s.h / (s.g - 1) : 0;
  local_base_ = 2LL * node_count();
  global_base_ = local_base_ + static_cast<std::int64_t>(s.g) * s.a * (s.a - 1);
}

LinkId Dragonfly::local(int group, int from, int to) const {
  return static_cast<LinkId>(local_base_ +
                             (static_cast<std::int64_t>(group) * s_.a + from) * (s_.a - 1) +
                             (to < from ? to : to - 1));
}

int Dragonfly::port_to(int from, int to, int copy) const {
  return copy * (s_.g - 1) + (to - from - 1 + s_.g) % s_.g;
}

LinkId Dragonfly::global_link(int from, int to) const {
  return static_cast<LinkId>(global_base_ + static_cast<std::int64_t>(from) * s_.a * s_.h +
                             port_to(from, to, 0));
}

// Local hop to the router owning the global port towards `target`, then the global link.
// Returns the router of `target` the link arrives at.
int Dragonfly::to_group(int group, int router, int target, int copy, Path& path) const {
  int j = port_to(group, target, copy);
  if (j / s_.h != router) path.add(local(group, router, j / s_.h));
  path.add(static_cast<LinkId>(global_base_ + static_cast<std::int64_t>(group) * s_.a * s_.h + j));
  return port_to(target, group, copy) / s_.h;
}

void Dragonfly::minimal(int src, int dst, std::uint64_t salt, Path& path) const {
  int gs = group_of(src), gd = group_of(dst), rd = router_of(dst);
  int r = router_of(src);
  path.add(2 * src);
  if (gs != gd) {
    int copy = static_cast<int>(below(mix64(salt, 1), static_cast<std::uint64_t>(copies_)));
    r = to_group(gs, r, gd, copy, path);
  }
  if (r != rd) path.add(local(gd, r, rd));
  path.add(2 * dst + 1);
}

void Dragonfly::valiant(int src, int dst, std::uint64_t salt, Path& path) const {
  int gs = group_of(src), gd = group_of(dst);
  if (gs == gd || s_.g < 3) return minimal(src, dst, salt, path);
  // An intermediate group drawn from the g - 2 that are neither source nor destination.
  int gi = static_cast<int>(below(mix64(salt, 2), static_cast<std::uint64_t>(s_.g - 2)));
  if (gi >= std::min(gs, gd)) ++gi;
  if (gi >= std::max(gs, gd)) ++gi;
  auto copies = static_cast<std::uint64_t>(copies_);
  path.add(2 * src);
  int r = to_group(gs, router_of(src), gi, static_cast<int>(below(mix64(salt, 3), copies)), path);
  r = to_group(gi, r, gd, static_cast<int>(below(mix64(salt, 4), copies)), path);
  if (r != router_of(dst)) path.add(local(gd, r, router_of(dst)));
  path.add(2 * dst + 1);
}

double Dragonfly::cost(const Path& path, const LinkLoad& load) const {
  double worst = 0;
  for (int i = 0; i < path.n; ++i)
    worst = std::max(worst, (load.flows_on(path.link[i]) + 1) / link_bw_Bps(path.link[i]));
  return worst * path.n;
}

void Dragonfly::route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const {
  Path path;
  if (routing_ == Routing::Valiant) {
    valiant(src, dst, ctx.salt, path);
  } else {
    minimal(src, dst, ctx.salt, path);
    if (routing_ == Routing::Ugal && ctx.load) {
      Path detour;
      valiant(src, dst, ctx.salt, detour);
      if (cost(detour, *ctx.load) < cost(path, *ctx.load)) path = detour;
    }
  }
  out.insert(out.end(), path.link, path.link + path.n);
}

double Dragonfly::link_bw_Bps(LinkId link) const {
  if (link < local_base_) return s_.terminal_Bps;
  return link < global_base_ ? s_.local_Bps : s_.global_Bps;
}

std::vector<CapacityRun> Dragonfly::capacity_runs() const {
  return {CapacityRun{0, static_cast<LinkId>(local_base_), s_.terminal_Bps},
          CapacityRun{static_cast<LinkId>(local_base_),
                      static_cast<LinkId>(global_base_ - local_base_), s_.local_Bps},
          CapacityRun{static_cast<LinkId>(global_base_),
                      static_cast<LinkId>(link_count() - global_base_), s_.global_Bps}};
}

std::string Dragonfly::link_name(LinkId link) const {
  auto router = [&](std::int64_t group, std::int64_t r) {
    return strprintf("g%lld.r%lld", static_cast<long long>(group), static_cast<long long>(r));
  };
  if (link < local_base_) {
    int node = link / 2;
    std::string n = "n" + std::to_string(node);
    std::string r = router(group_of(node), router_of(node));
    return link % 2 == 0 ? n + ">" + r : r + ">" + n;
  }
  if (link < global_base_) {
    std::int64_t i = link - local_base_;
    std::int64_t from = i / (s_.a - 1), k = i % (s_.a - 1);
    std::int64_t group = from / s_.a, r = from % s_.a;
    return router(group, r) + ">" + router(group, k < r ? k : k + 1);
  }
  std::int64_t i = link - global_base_;
  auto group = static_cast<int>(i / (s_.a * s_.h));
  auto j = static_cast<int>(i % (s_.a * s_.h));
  if (s_.g < 2 || j >= copies_ * (s_.g - 1)) return router(group, j / s_.h) + ">unused";
  int target = (group + 1 + j % (s_.g - 1)) % s_.g;
  int arrival = port_to(target, group, j / (s_.g - 1)) / s_.h;
  return router(group, j / s_.h) + ">" + router(target, arrival) + " global";
}

}  // namespace simmpi::hardware
