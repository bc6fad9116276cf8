// SPDX-License-Identifier: Apache-2.0
// Network statistics, as CODES, MARS and SST/macro report them: per link, bytes carried and busy
// time (time with at least one flow on it) and, for the most loaded links, their load over time;
// per run, the most loaded links, a histogram of route lengths and a traffic matrix. Written as CSV
// files at the end of a run, only when network.stats is on (the per-flow bookkeeping costs time).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hardware/network/link_timeline.hpp"
#include "hardware/network/network.hpp"
#include "hardware/network/topology.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

// Bytes and messages between pairs of endpoints (nodes or ranks), kept sparse: an all-to-all on
// n endpoints costs n^2 entries, a nearest-neighbour code a few per endpoint.
class TrafficMatrix {
 public:
  void add(int src, int dst, std::uint64_t bytes) {
    Cell& c = cells_[{src, dst}];
    c.bytes += bytes;
    ++c.messages;
  }
  // "src,dst,messages,bytes", rows in (src, dst) order. `what` names the endpoints ("node").
  void write_csv(const std::string& path, const char* what) const;

 private:
  struct Cell {
    std::uint64_t bytes = 0;
    std::uint64_t messages = 0;
  };
  std::map<std::pair<int, int>, Cell> cells_;
};

class NetStats {
 public:
  NetStats(const Topology& topology, const runtime::Config& config);

  // A flow of `bytes` starts (ends) on `links`; `load` already counts it (no longer counts it).
  void flow_started(const LinkId* links, int count, runtime::SimTime now, const LinkLoad& load);
  void flow_ended(const LinkId* links, int count, double bytes, runtime::SimTime now,
                  const LinkLoad& load);
  // `bytes` of a flow crossed `links` at one rate from `from` to `to` (the load over time).
  void carried(const LinkId* links, int count, double bytes, runtime::SimTime from,
               runtime::SimTime to) {
    timeline_.carried(links, count, bytes, from, to);
  }
  // One message between two nodes (network traffic only), for a node-level matrix.
  void message(int src_node, int dst_node, std::uint64_t bytes);

  double link_bytes(LinkId l) const { return links_[static_cast<std::size_t>(l)].bytes; }
  runtime::SimTime link_busy(LinkId l) const { return links_[static_cast<std::size_t>(l)].busy; }
  // Flows (chunks) by number of switches crossed.
  const std::vector<std::uint64_t>& hop_histogram() const { return hop_flows_; }
  bool wants_node_matrix() const { return node_matrix_; }
  const LinkTimeline& timeline() const { return timeline_; }
  // The busiest links' load over time until `end` (what link_load.csv holds).
  std::vector<LinkSeries> busiest_link_load(runtime::SimTime end) const;

  // Writes <prefix>links.csv, <prefix>busiest_links.csv, <prefix>link_load.csv (the busiest
  // links' load over time), <prefix>hops.csv and, for a node matrix, <prefix>matrix.csv. Returns
  // the paths written. Links that `load` shows still busy at `end` (a run cut short) count as busy
  // until `end`.
  std::vector<std::string> write(runtime::SimTime end, const LinkLoad& load) const;

 private:
  struct LinkCounters {
    double bytes = 0;
    runtime::SimTime busy;
    runtime::SimTime busy_since;
  };
  double busy_s(std::size_t l, runtime::SimTime end, const LinkLoad& load) const;
  double utilization(std::size_t l, runtime::SimTime end) const;
  void write_links(const std::string& path, runtime::SimTime end, const LinkLoad& load) const;
  std::vector<LinkId> busiest() const;
  // The busiest links that carried anything: the ones whose load over time is reported.
  std::vector<LinkId> busy_links() const;
  void write_link_load(const std::string& path, runtime::SimTime end) const;
  void write_busiest(const std::string& path, runtime::SimTime end, const LinkLoad& load) const;
  void write_hops(const std::string& path) const;

  const Topology& topology_;
  std::string prefix_;
  std::size_t top_;
  bool node_matrix_;
  std::vector<LinkCounters> links_;
  std::vector<std::uint64_t> hop_flows_;
  std::vector<double> hop_bytes_;
  TrafficMatrix matrix_;
  LinkTimeline timeline_;
};

}  // namespace simmpi::hardware
