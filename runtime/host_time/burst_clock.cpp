// SPDX-License-Identifier: Apache-2.0
// The host's thread CPU clock for the burst clock (see the header).
#include "runtime/host_time/burst_clock.hpp"

#include "runtime/core/host_clock.hpp"
#include "runtime/host_time/burst_clock_impl.hpp"

namespace simmpi::runtime {

std::int64_t HostProbes::cpu_ns() {
  return host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

template class BasicBurstClock<HostProbes>;

}  // namespace simmpi::runtime
