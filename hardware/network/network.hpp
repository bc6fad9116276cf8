// SPDX-License-Identifier: Apache-2.0
// The interface every interconnect model implements. A model moves bytes between nodes and
// tells when the last byte will arrive; it knows nothing of MPI (protocols, matching and
// software overheads live in libsimmpi).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/engine.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {

using runtime::Action;
using runtime::SimTime;

// How a transfer tells its end: `fn(obj, arg, arrival)` runs once the time the last byte arrives
// is known, i.e. when it has left the source (the rest of its way is a fixed latency that shares
// nothing), or at once, inside transfer(), when nothing is shared at all. It may run before
// `arrival`: a message then needs one engine event fewer than if its arrival were an event of
// its own (10-21% of HPL's events), and its receiver's wake-up is scheduled for the same time
// all the same.
struct ArrivalNotice {
  void (*fn)(void* obj, std::uint64_t arg, SimTime arrival) = nullptr;
  void* obj = nullptr;
  std::uint64_t arg = 0;
  void operator()(SimTime arrival) const { fn(obj, arg, arrival); }
};

// One link's load over time in consecutive bins of `bin` starting at time zero: the bytes it
// carried and its utilization (those bytes over what its bandwidth allows in a bin).
struct LinkSeries {
  int link = 0;
  std::string name;
  SimTime bin;
  std::vector<double> bytes, utilization;
};

class Network {
 public:
  virtual ~Network() = default;
  virtual int node_count() const = 0;
  // Time a zero-byte message takes from `src` to `dst` on an idle network: NICs plus the
  // route's switch hops. Used for protocol control messages, whose size is negligible.
  virtual SimTime latency(int src_node, int dst_node) const = 0;
  // A lower bound of latency() over every pair of distinct nodes.
  virtual SimTime min_latency() const = 0;
  // Bandwidth a flow from `src` to `dst` gets alone on an idle network: its route's narrowest
  // link (what explains a transfer's time before any sharing).
  virtual double alone_Bps(int src_node, int dst_node) const = 0;
  // The link of the route from `src` to `dst` that carried most bytes between `from` and `to`,
  // by name, when network.stats records link load over time; "" otherwise.
  virtual std::string busiest_link(int /*src_node*/, int /*dst_node*/, SimTime /*from*/,
                                   SimTime /*to*/) const {
    return "";
  }
  // Starts moving `bytes` from `src` to `dst` at the engine's current time; `arrived` is told
  // when the last byte arrives (ArrivalNotice). src != dst.
  virtual void transfer(int src_node, int dst_node, std::uint64_t bytes, ArrivalNotice arrived) = 0;
  // The most loaded links' load over time until `end`, when network.stats records it; empty
  // otherwise.
  virtual std::vector<LinkSeries> busiest_link_load(SimTime /*end*/) const { return {}; }
  // Called once when the simulation has ended: writes the statistics the configuration asked
  // for and returns the files written. Throws ConfigError when an output file cannot be written.
  virtual std::vector<std::string> finish() { return {}; }
};

}  // namespace simmpi::hardware
