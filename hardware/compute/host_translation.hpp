// SPDX-License-Identifier: Apache-2.0
// Translating host time of a program's own code to the simulated node's CPU.
//
// A burst measured on the host took t_host; on the simulated core it takes t_host x ratio. Which
// ratio is right depends on what limits the code, which a time measurement does not tell:
//   clock   host clock / node clock: scalar, branchy, in-cache code, where both cores retire the
//           same instructions per cycle (the default: it assumes least about the code);
//   flops   host core peak / node core peak (vector clock x flops per cycle): vectorized
//           floating point that runs near peak on both;
//   memory  host core bandwidth / the node's bandwidth per core when all the job's ranks on a
//           node and their threads stream (min(node.core_memory_bw, node.memory_bw /
//           (min(ranks, node.ranks_per_node) x cores per rank))): streaming code (stencils,
//           sparse matrix-vector products), including what ranks of one node lose to each
//           other, which the host's measurement of one rank at a time cannot see.
// The three can differ several-fold between two machines (a node whose 56 cores share 282 GB/s
// gives each 5 GB/s, a third of what one core of a quiet host draws); the run's summary prints
// all three so the spread is visible. See docs/compute_time.md.
#pragma once

#include <string>

#include "hardware/compute/cpu_model.hpp"
#include "hardware/compute/host_model.hpp"

namespace simmpi::hardware {

enum class HostTimeBound { Clock, Flops, Memory };

struct HostTranslation {
  double clock = 1, flops = 1, memory = 1;  // simulated seconds per host second, by bound

  // `job_ranks`: the job's rank count (a job smaller than a node does not fill it).
  static HostTranslation between(const HostModel& host, const NodeSpec& node, int job_ranks);
  double ratio(HostTimeBound b) const;
};

// "clock", "flops", "memory".
const char* bound_name(HostTimeBound b);

}  // namespace simmpi::hardware
