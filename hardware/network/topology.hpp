// SPDX-License-Identifier: Apache-2.0
// The shape of an interconnect as the flow model sees it: numbered unidirectional links, each
// with a bandwidth, and a route function that lists the links a message crosses. Routes are
// computed on demand from the topology's parameters (no routing tables), so memory grows with
// the number of links, never with nodes^2.
//
// Every route starts with the source node's injection link (NIC to first switch) and ends with
// the destination's ejection link, so a route of k links crosses k - 1 switches.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simmpi::hardware {

using LinkId = std::int32_t;

// The current load of the links, for adaptive routing (UGAL).
class LinkLoad {
 public:
  virtual int flows_on(LinkId link) const = 0;

 protected:
  ~LinkLoad() = default;
};

// Links [first, first + count) all have capacity `Bps`.
struct CapacityRun {
  LinkId first = 0;
  LinkId count = 0;
  double Bps = 0;
};

// The runs of equal capacity of links [0, link_count), each as long as it goes, from one call of
// `link_Bps` per link: the answer of a topology that knows no cheaper one.
std::vector<CapacityRun> capacity_runs_of(int link_count,
                                          const std::function<double(LinkId)>& link_Bps);

// What a routing decision may look at.
struct RouteContext {
  std::uint64_t salt = 0;          // random bits owned by this flow (seeded, reproducible)
  const LinkLoad* load = nullptr;  // nullptr: no load information (protocol control messages)
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual int node_count() const = 0;
  virtual int link_count() const = 0;
  virtual double link_bw_Bps(LinkId link) const = 0;
  // Every link's capacity as consecutive runs: the first starts at link 0, each next one where
  // the last ends, the last ends at link_count(); within a run, link_bw_Bps gives the run's Bps.
  // Neighbouring runs may have equal capacities and a run may be empty. Topologies know their
  // runs from their shape (a fat-tree's levels, a dragonfly's kinds of link), which spares the
  // network a call per link when it starts (6 M of them at a million endpoints); the default
  // asks link_bw_Bps of every link.
  virtual std::vector<CapacityRun> capacity_runs() const;
  // "leaf3>core1.2" style, for statistics files.
  virtual std::string link_name(LinkId link) const = 0;
  // Appends the links from `src`'s NIC to `dst`'s NIC (src != dst, both < node_count()).
  virtual void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const = 0;
  // How many links every route from `src` to `dst` has, when all have as many and that is
  // cheaper to count than a route (the network's latency is asked at every poll); -1 otherwise.
  virtual int route_links(int src, int dst) const {
    (void)src;
    (void)dst;
    return -1;
  }
  // True when route() ignores its RouteContext: every message between two nodes takes the same
  // route (minimal deterministic routing), so the network may keep a pair's route and reuse it.
  // False when a route draws on the flow's salt or the links' load (random, adaptive routing).
  virtual bool has_fixed_routes() const { return false; }
};

}  // namespace simmpi::hardware
