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
