// SPDX-License-Identifier: Apache-2.0
// Privatization by copying: the live segment is saved to the owner's buffer and the next
// rank's buffer is copied in. Cost per switch: two memcpy of the segment, which for the usual
// C and C++ programs is a few hundred bytes to a few KiB.
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/privatize/detail/methods.hpp"

namespace simmpi::runtime::detail {
namespace {

class CopyPrivatizer final : public Privatizer {
 public:
  CopyPrivatizer(const ProgramImage& image, int ranks)
      : seg_(image.writable()), fresh_(fresh_rank_image(image)), copies_(ranks) {
    global_.assign(seg_.begin, seg_.end);
  }

  void activate(int rank) override {
    if (rank == live_) return;
    std::memcpy(live_ < 0 ? global_.data() : copies_[live_].get(), seg_.begin, seg_.size());
    std::memcpy(seg_.begin, copy_of(rank), seg_.size());
    live_ = rank;
  }

  void* translate(int rank, void* addr) override {
    if (rank == live_ || !seg_.contains(addr)) return addr;
    return copy_of(rank) + (static_cast<char*>(addr) - seg_.begin);
  }

  void restore_global() override {
    if (live_ >= 0) std::memcpy(copies_[live_].get(), seg_.begin, seg_.size());
    std::memcpy(seg_.begin, global_.data(), seg_.size());
    live_ = -1;
  }

  std::size_t bytes_per_rank() const override { return seg_.size(); }

 private:
  char* copy_of(int rank) {
    auto& c = copies_[rank];
    if (!c) {
      c.reset(new char[seg_.size()]);
      std::memcpy(c.get(), fresh_.data(), seg_.size());
    }
    return c.get();
  }

  ByteRange seg_;
  std::vector<char> fresh_;
  std::vector<char> global_;
  std::vector<std::unique_ptr<char[]>> copies_;
  int live_ = -1;  // -1: the process's own image is live
};

}  // namespace

std::unique_ptr<Privatizer> make_copy_privatizer(const ProgramImage& image, int ranks) {
  return std::make_unique<CopyPrivatizer>(image, ranks);
}

}  // namespace simmpi::runtime::detail
