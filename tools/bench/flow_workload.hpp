// SPDX-License-Identifier: Apache-2.0
// The flows of flow_bench's closed loop, shared with its peers (flow_bench_simgrid.cpp) so that
// every simulator is given the same sources, destinations and sizes: the n-th flow started (n =
// 0, 1, 2, ... in start order, whatever its slot) by slot s on a tree of `nodes` nodes goes from
// node s mod nodes to a different node drawn uniformly, with a log-uniform size of 1 KiB to
// 1 MiB (1 KiB * 2^k * (1 + j/1000), k < 10, j < 1000). Header-only and free of simmpi state:
// it needs only the counter-based generator of hardware/seeded_random.hpp.
#pragma once

#include <cstdint>

#include "hardware/seeded_random.hpp"

namespace simmpi::bench {

struct FlowDraw {
  int src;
  int dst;
  std::uint64_t bytes;
};

inline FlowDraw draw_flow(std::uint64_t n, int slot, int nodes) {
  using hardware::below;
  using hardware::mix64;
  std::uint64_t r = mix64(0xbe7c4ULL, n);
  int src = slot % nodes;
  int dst = static_cast<int>((static_cast<std::uint64_t>(src) + 1 +
                              below(mix64(r, 1), static_cast<std::uint64_t>(nodes - 1))) %
                             static_cast<std::uint64_t>(nodes));
  double bytes = 1024.0 * static_cast<double>(1ULL << below(mix64(r, 2), 10)) *
                 (1.0 + static_cast<double>(below(mix64(r, 3), 1000)) / 1000.0);
  return {src, dst, static_cast<std::uint64_t>(bytes)};
}

}  // namespace simmpi::bench
