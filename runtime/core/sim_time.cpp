// SPDX-License-Identifier: Apache-2.0
// Exact decimal formatting of simulated time.
#include "runtime/core/sim_time.hpp"

#include <cinttypes>
#include <cstdio>

namespace simmpi::runtime {

std::string SimTime::to_string() const {
  return to_decimal() + " s";
}

std::string SimTime::to_decimal() const {
  std::int64_t v = ps_ < 0 ? -ps_ : ps_;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%" PRId64 ".%012" PRId64, ps_ < 0 ? "-" : "",
                v / 1000000000000LL, v % 1000000000000LL);
  return buf;
}

}  // namespace simmpi::runtime
