// SPDX-License-Identifier: Apache-2.0
// Privatization by remapping: a switch maps the next rank's slot of a memory file over the
// region (one mmap call, whatever the region's size). SMPI's default method works the same way.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "runtime/core/error.hpp"
#include "runtime/privatize/detail/methods.hpp"

namespace simmpi::runtime::detail {
namespace {

[[noreturn]] void fail(const char* what, const std::string& module) {
  fatal(71, strprintf("%s (%s): %s; try --set runtime.privatize=copy", what, module.c_str(),
                      std::strerror(errno)));
}

}  // namespace

MappedRegion::MappedRegion(const PrivateRegion& r, int ranks, int live_rank)
    : initialized_(static_cast<std::size_t>(ranks), false) {
  std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  // Whole pages only. The head of the first page may hold the end of RELRO, which the loader
  // left writable and which is identical in every rank; the rest of the last page is the
  // module's own (the loader maps each module's segments in whole pages).
  auto down = [&](char* p) {
    return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(p) / page * page);
  };
  span_ = {down(r.live.begin), down(r.live.end + page - 1)};
  head_ = static_cast<std::size_t>(r.live.begin - span_.begin);
  fresh_ = r.fresh;
  module_ = r.module;
  fd_ = memfd_create("simmpi-globals", MFD_CLOEXEC);
  std::size_t total = span_.size() * (static_cast<std::size_t>(ranks) + 1);
  if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(total)) != 0)
    fail("cannot create the memory file for per-rank globals", r.module);
  void* w = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (w == MAP_FAILED) fail("cannot map the per-rank globals", r.module);
  window_ = static_cast<char*>(w);
  std::memcpy(window_, span_.begin, span_.size());  // slot 0: the process's own image
  if (live_rank >= 0) slot(live_rank);  // its copy starts from the live bytes, as fresh_ holds
  map_slot(static_cast<std::size_t>(live_rank + 1));
}

MappedRegion::MappedRegion(MappedRegion&& o) noexcept
    : span_(o.span_),
      head_(o.head_),
      fresh_(std::move(o.fresh_)),
      module_(std::move(o.module_)),
      initialized_(std::move(o.initialized_)),
      fd_(std::exchange(o.fd_, -1)),
      window_(o.window_) {}

MappedRegion::~MappedRegion() {
  if (fd_ >= 0) close(fd_);
}

void MappedRegion::switch_to(int to) {
  if (to >= 0) slot(to);  // initializes a fresh rank's slot
  map_slot(static_cast<std::size_t>(to + 1));
}

char* MappedRegion::saved(int rank, void* addr) {
  auto* a = static_cast<char*>(addr);
  if (!span_.contains(a)) return nullptr;
  return slot(rank) + (a - span_.begin);
}

char* MappedRegion::slot(int rank) {
  char* s = window_ + span_.size() * (static_cast<std::size_t>(rank) + 1);
  if (!initialized_[static_cast<std::size_t>(rank)]) {
    std::memcpy(s, window_, head_);  // the shared RELRO tail
    std::memcpy(s + head_, fresh_.data(), fresh_.size());
    initialized_[static_cast<std::size_t>(rank)] = true;
  }
  return s;
}

void MappedRegion::map_slot(std::size_t s) {
  void* p = mmap(span_.begin, span_.size(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                 static_cast<off_t>(s * span_.size()));
  if (p == MAP_FAILED) fail("cannot map a rank's globals over the data segment", module_);
}

}  // namespace simmpi::runtime::detail
