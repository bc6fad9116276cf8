// SPDX-License-Identifier: Apache-2.0
// Privatization by copying: the live bytes are saved to the owner's buffer and the next rank's
// buffer is copied in. Cost per switch: two memcpy of the region, which for the usual C and C++
// programs and libraries is a few hundred bytes to a few KiB.
#include <cstring>

#include "runtime/privatize/detail/methods.hpp"

namespace simmpi::runtime::detail {

CopyRegion::CopyRegion(const PrivateRegion& r, int ranks)
    : live_(r.live),
      fresh_(r.fresh),
      global_(r.live.begin, r.live.end),
      copies_(static_cast<std::size_t>(ranks)) {}

char* CopyRegion::first_copy(int rank) {
  auto& c = copies_[static_cast<std::size_t>(rank)];
  c.reset(new char[live_.size()]);
  std::memcpy(c.get(), fresh_.data(), live_.size());
  return c.get();
}

}  // namespace simmpi::runtime::detail
