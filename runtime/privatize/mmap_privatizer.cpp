// SPDX-License-Identifier: Apache-2.0
// Privatization by remapping: slot 0 of a memory file holds the process's own image, slot r+1
// rank r's. A switch maps the next rank's slot over the segment (one mmap call, whatever the
// segment's size); a second, permanent mapping of the whole file lets translate() reach any
// rank's copy. SMPI's default method works the same way.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "runtime/core/error.hpp"
#include "runtime/privatize/detail/methods.hpp"

namespace simmpi::runtime::detail {
namespace {

class MmapPrivatizer final : public Privatizer {
 public:
  MmapPrivatizer(const ProgramImage& image, int ranks) : initialized_(ranks, false) {
    std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    ByteRange seg = image.writable();
    // Whole pages only. The head of the first page may hold the end of RELRO, which the loader
    // left writable and which is identical in every rank.
    auto down = [&](char* p) {
      return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(p) / page * page);
    };
    span_ = {down(seg.begin), down(seg.end + page - 1)};
    head_ = static_cast<std::size_t>(seg.begin - span_.begin);
    fresh_ = fresh_rank_image(image);
    fd_ = memfd_create("simmpi-globals", MFD_CLOEXEC);
    std::size_t total = span_.size() * (static_cast<std::size_t>(ranks) + 1);
    if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(total)) != 0)
      fail("cannot create the memory file for per-rank globals");
    void* w = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (w == MAP_FAILED) fail("cannot map the per-rank globals");
    window_ = static_cast<char*>(w);
    std::memcpy(window_, span_.begin, span_.size());  // slot 0: the process's own image
    map_slot(0);
  }

  ~MmapPrivatizer() override { close(fd_); }

  void activate(int rank) override {
    if (rank == live_) return;
    slot(rank);  // initializes a fresh rank's slot
    map_slot(static_cast<std::size_t>(rank) + 1);
    live_ = rank;
  }

  void* translate(int rank, void* addr) override {
    auto* a = static_cast<char*>(addr);
    if (rank == live_ || a < span_.begin || a >= span_.end) return addr;
    return slot(rank) + (a - span_.begin);
  }

  void restore_global() override {
    map_slot(0);
    live_ = -1;
  }

  std::size_t bytes_per_rank() const override { return span_.size(); }

 private:
  [[noreturn]] static void fail(const char* what) {
    fatal(71, strprintf("%s: %s; try --set runtime.privatize=copy", what, std::strerror(errno)));
  }

  char* slot(int rank) {
    char* s = window_ + span_.size() * (static_cast<std::size_t>(rank) + 1);
    if (!initialized_[rank]) {
      std::memcpy(s, window_, head_);  // the shared RELRO tail
      std::memcpy(s + head_, fresh_.data(), fresh_.size());
      initialized_[rank] = true;
    }
    return s;
  }

  void map_slot(std::size_t s) {
    void* p = mmap(span_.begin, span_.size(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                   static_cast<off_t>(s * span_.size()));
    if (p == MAP_FAILED) fail("cannot map a rank's globals over the data segment");
  }

  ByteRange span_;
  std::size_t head_ = 0;
  std::vector<char> fresh_;
  std::vector<bool> initialized_;
  int fd_ = -1;
  char* window_ = nullptr;
  int live_ = -1;
};

}  // namespace

std::unique_ptr<Privatizer> make_mmap_privatizer(const ProgramImage& image, int ranks) {
  return std::make_unique<MmapPrivatizer>(image, ranks);
}

}  // namespace simmpi::runtime::detail
