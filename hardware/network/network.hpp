// SPDX-License-Identifier: Apache-2.0
// The interface every interconnect model implements. A model moves bytes between nodes and
// tells, through the event engine, when the last byte has arrived; it knows nothing of MPI
// (protocols, matching and software overheads live in libsimmpi).
#pragma once

#include <cstdint>

#include "runtime/core/engine.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {

using runtime::Action;
using runtime::SimTime;

class Network {
 public:
  virtual ~Network() = default;
  virtual int node_count() const = 0;
  // Time a zero-byte message takes from `src` to `dst` on an idle network: NICs plus the
  // route's switch hops. Used for protocol control messages, whose size is negligible.
  virtual SimTime latency(int src_node, int dst_node) const = 0;
  // A lower bound of latency() over every pair of distinct nodes.
  virtual SimTime min_latency() const = 0;
  // Starts moving `bytes` from `src` to `dst` at the engine's current time. `delivered` is
  // scheduled on the engine for the time the last byte arrives. src != dst.
  virtual void transfer(int src_node, int dst_node, std::uint64_t bytes, Action delivered) = 0;
  // Called once when the simulation has ended: writes the statistics the configuration asked
  // for. Throws ConfigError when an output file cannot be written.
  virtual void finish() {}
};

}  // namespace simmpi::hardware
