// SPDX-License-Identifier: Apache-2.0
// How simmpi-replay makes a recorded collective: blocking, nonblocking or persistent as the
// record says (one macro for every collective), and the buffer sizes of its count arrays.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mpi.h"
#include "runtime/observe/call_trace_format.hpp"

namespace simmpi::replay {

// A collective's request: made for a nonblocking or a persistent one (recorded as its request
// handle; a persistent one is a record of its own kind, call_trace::kPersistentCollectives).
struct Nonblocking {
  std::int64_t recorded;
  bool persistent;
  MPI_Request q = MPI_REQUEST_NULL;
  bool is_blocking() const { return recorded == runtime::call_trace::kNoRequest && !persistent; }
};

// Makes collective BLOCKING as recorded (`nb`): blocking, nonblocking (NONBLOCKING, the request in
// nb.q) or persistent (BLOCKING##_init, no info hints, the inactive request in nb.q), with the
// same arguments.
#define SIMMPI_REPLAY_COLLECTIVE(nb, BLOCKING, NONBLOCKING, ...)               \
  ((nb).persistent      ? BLOCKING##_init(__VA_ARGS__, MPI_INFO_NULL, &(nb).q) \
   : (nb).is_blocking() ? BLOCKING(__VA_ARGS__)                                \
                        : NONBLOCKING(__VA_ARGS__, &(nb).q))

// The elements a buffer needs for blocks of `counts` at `displs`.
inline std::int64_t span(const std::vector<int>& counts, const std::vector<int>& displs) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < counts.size() && i < displs.size(); ++i)
    s = std::max<std::int64_t>(s, std::int64_t{displs[i]} + counts[i]);
  return s;
}

// Counts (or displacements) of a derived type's elements, as bytes.
inline void scale(std::vector<int>& v, int factor) {
  for (int& x : v) x *= factor;
}

}  // namespace simmpi::replay
