// SPDX-License-Identifier: Apache-2.0
// The two privatization methods, each for one region, private to runtime/privatize. Both give
// a region's per-rank copies the same three operations; `from`/`to` are ranks, -1 meaning the
// process's own image (before and after the simulation).
#pragma once

#include <sys/types.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/privatize/program_image.hpp"

namespace simmpi::runtime::detail {

// Saved copies, swapped with the live bytes by memcpy.
class CopyRegion {
 public:
  CopyRegion(const PrivateRegion& r, int ranks);
  void switch_to(int from, int to) {
    std::memcpy(from < 0 ? global_.data() : copy_of(from), live_.begin, live_.size());
    std::memcpy(live_.begin, to < 0 ? global_.data() : copy_of(to), live_.size());
  }
  // `rank`'s copy of `addr` when it is not live, nullptr when `addr` is not in the region.
  char* saved(int rank, void* addr) {
    if (!live_.contains(addr)) return nullptr;
    return copy_of(rank) + (static_cast<char*>(addr) - live_.begin);
  }
  std::size_t size() const { return live_.size(); }

 private:
  char* copy_of(int rank) {
    auto& c = copies_[static_cast<std::size_t>(rank)];
    return c ? c.get() : first_copy(rank);
  }
  char* first_copy(int rank);

  ByteRange live_;
  std::vector<char> fresh_;
  std::vector<char> global_;
  std::vector<std::unique_ptr<char[]>> copies_;
};

// Slot 0 of a memory file holds the process's own image, slot r+1 rank r's; a switch maps the
// next slot over the region's pages, and a second, permanent mapping of the whole file lets
// saved() reach any rank's copy.
class MappedRegion {
 public:
  MappedRegion(const PrivateRegion& r, int ranks, int live_rank);
  MappedRegion(MappedRegion&& o) noexcept;
  MappedRegion(const MappedRegion&) = delete;
  ~MappedRegion();
  void switch_to(int to);
  char* saved(int rank, void* addr);
  std::size_t size() const { return span_.size(); }

 private:
  char* slot(int rank);
  void map_slot(std::size_t s);

  ByteRange span_;  // whole pages
  std::size_t head_ = 0;
  std::vector<char> fresh_;
  std::string module_;
  std::vector<bool> initialized_;
  int fd_ = -1;
  char* window_ = nullptr;
};

}  // namespace simmpi::runtime::detail
