// SPDX-License-Identifier: Apache-2.0
// Link counters and the CSV files of network.stats.
#include "hardware/network/net_stats.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_csv(const std::string& path) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f)
    throw ConfigError(
        strprintf("network.stats_prefix: cannot write %s (%s); choose a writable "
                  "path prefix",
                  path.c_str(), std::strerror(errno)));
  return f;
}

}  // namespace

void TrafficMatrix::write_csv(const std::string& path, const char* what) const {
  File f = open_csv(path);
  std::fprintf(f.get(), "src_%s,dst_%s,messages,bytes\n", what, what);
  for (const auto& [pair, c] : cells_)
    std::fprintf(f.get(), "%d,%d,%llu,%llu\n", pair.first, pair.second,
                 static_cast<unsigned long long>(c.messages),
                 static_cast<unsigned long long>(c.bytes));
}

NetStats::NetStats(const Topology& topology, const runtime::Config& config)
    : topology_(topology),
      prefix_(config.path("network.stats_prefix")),
      top_(static_cast<std::size_t>(config.integer("network.stats_top"))),
      node_matrix_(config.text("network.stats_matrix") == "nodes"),
      links_(static_cast<std::size_t>(topology.link_count())),
      timeline_(static_cast<std::size_t>(topology.link_count())) {}

void NetStats::flow_started(const LinkId* links, int count, runtime::SimTime now,
                            const LinkLoad& load) {
  for (int i = 0; i < count; ++i)
    if (load.flows_on(links[i]) == 1) links_[static_cast<std::size_t>(links[i])].busy_since = now;
  auto hops = static_cast<std::size_t>(count - 1);
  if (hop_flows_.size() <= hops) hop_flows_.resize(hops + 1), hop_bytes_.resize(hops + 1);
  ++hop_flows_[hops];
}

void NetStats::flow_ended(const LinkId* links, int count, double bytes, runtime::SimTime now,
                          const LinkLoad& load) {
  for (int i = 0; i < count; ++i) {
    LinkCounters& c = links_[static_cast<std::size_t>(links[i])];
    c.bytes += bytes;
    if (load.flows_on(links[i]) == 0) c.busy += now - c.busy_since;
  }
  hop_bytes_[static_cast<std::size_t>(count - 1)] += bytes;
}

void NetStats::message(int src_node, int dst_node, std::uint64_t bytes) {
  if (node_matrix_) matrix_.add(src_node, dst_node, bytes);
}

double NetStats::busy_s(std::size_t l, runtime::SimTime end, const LinkLoad& load) const {
  runtime::SimTime b = links_[l].busy;
  if (load.flows_on(static_cast<LinkId>(l)) > 0) b += end - links_[l].busy_since;
  return b.seconds();
}

double NetStats::utilization(std::size_t l, runtime::SimTime end) const {
  double cap = topology_.link_bw_Bps(static_cast<LinkId>(l)) * end.seconds();
  return cap > 0 ? links_[l].bytes / cap : 0.0;
}

void NetStats::write_links(const std::string& path, runtime::SimTime end,
                           const LinkLoad& load) const {
  File f = open_csv(path);
  std::fprintf(f.get(), "link,name,bw_Bps,bytes,busy_s,utilization\n");
  for (std::size_t l = 0; l < links_.size(); ++l)
    std::fprintf(f.get(), "%zu,%s,%.17g,%.17g,%.12f,%.6f\n", l,
                 topology_.link_name(static_cast<LinkId>(l)).c_str(),
                 topology_.link_bw_Bps(static_cast<LinkId>(l)), links_[l].bytes,
                 busy_s(l, end, load), utilization(l, end));
}

// The top_ links by bytes carried (ties: lower link number first).
std::vector<LinkId> NetStats::busiest() const {
  std::vector<std::size_t> order(links_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::size_t n = std::min(top_, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      return links_[a].bytes != links_[b].bytes ? links_[a].bytes > links_[b].bytes
                                                                : a < b;
                    });
  std::vector<LinkId> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<LinkId>(order[i]));
  return out;
}

void NetStats::write_busiest(const std::string& path, runtime::SimTime end,
                             const LinkLoad& load) const {
  File f = open_csv(path);
  std::fprintf(f.get(), "position,link,name,bytes,busy_s,utilization\n");
  std::vector<LinkId> top = busiest();
  for (std::size_t i = 0; i < top.size(); ++i) {
    auto l = static_cast<std::size_t>(top[i]);
    std::fprintf(f.get(), "%zu,%zu,%s,%.17g,%.12f,%.6f\n", i + 1, l,
                 topology_.link_name(top[i]).c_str(), links_[l].bytes, busy_s(l, end, load),
                 utilization(l, end));
  }
}

std::vector<LinkId> NetStats::busy_links() const {
  std::vector<LinkId> out;
  for (LinkId l : busiest())
    if (links_[static_cast<std::size_t>(l)].bytes > 0) out.push_back(l);
  return out;
}

std::vector<LinkSeries> NetStats::busiest_link_load(runtime::SimTime end) const {
  std::vector<LinkSeries> out;
  const runtime::SimTime bin = timeline_.bin_width();
  const std::size_t used = timeline_.bins_until(end);
  for (LinkId l : busy_links()) {
    LinkSeries s{static_cast<int>(l), topology_.link_name(l), bin, timeline_.bins(l),
                 std::vector<double>(used, 0.0)};
    s.bytes.resize(used, 0.0);
    const double capacity = topology_.link_bw_Bps(l) * bin.seconds();
    for (std::size_t i = 0; i < used; ++i)
      s.utilization[i] = capacity > 0 ? s.bytes[i] / capacity : 0.0;
    out.push_back(std::move(s));
  }
  return out;
}

void NetStats::write_link_load(const std::string& path, runtime::SimTime end) const {
  File f = open_csv(path);
  std::fprintf(f.get(), "link,name,begin_s,end_s,bytes,utilization\n");
  for (const LinkSeries& s : busiest_link_load(end)) {
    const double width_s = s.bin.seconds();
    for (std::size_t i = 0; i < s.bytes.size(); ++i)
      std::fprintf(f.get(), "%d,%s,%.12f,%.12f,%.17g,%.6f\n", s.link, s.name.c_str(),
                   static_cast<double>(i) * width_s, static_cast<double>(i + 1) * width_s,
                   s.bytes[i], s.utilization[i]);
  }
}

void NetStats::write_hops(const std::string& path) const {
  File f = open_csv(path);
  std::fprintf(f.get(), "hops,flows,bytes\n");
  for (std::size_t h = 0; h < hop_flows_.size(); ++h)
    if (hop_flows_[h])
      std::fprintf(f.get(), "%zu,%llu,%.17g\n", h, static_cast<unsigned long long>(hop_flows_[h]),
                   hop_bytes_[h]);
}

std::vector<std::string> NetStats::write(runtime::SimTime end, const LinkLoad& load) const {
  std::vector<std::string> paths = {prefix_ + "links.csv", prefix_ + "busiest_links.csv",
                                    prefix_ + "link_load.csv", prefix_ + "hops.csv"};
  write_links(paths[0], end, load);
  write_busiest(paths[1], end, load);
  write_link_load(paths[2], end);
  write_hops(paths[3]);
  if (node_matrix_) {
    paths.push_back(prefix_ + "matrix.csv");
    matrix_.write_csv(paths.back(), "node");
  }
  return paths;
}

}  // namespace simmpi::hardware
