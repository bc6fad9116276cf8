// SPDX-License-Identifier: Apache-2.0
// The privatizer: one switch over every region of the program's state, each region by the
// method chosen for it; and the factory.
#include "runtime/privatize/privatizer.hpp"

#include "runtime/core/error.hpp"
#include "runtime/privatize/detail/methods.hpp"

namespace simmpi::runtime {
namespace {

class SharedGlobals final : public Privatizer {
 public:
  void activate(int) override {}
  void* translate(int, void* addr) override { return addr; }
  void restore_global() override {}
  std::size_t bytes_per_rank() const override { return 0; }
  bool is_private() const override { return false; }
  void add_regions(std::vector<PrivateRegion>) override {}
};

enum class Method { Auto, Copy, Mmap };

class RegionPrivatizer final : public Privatizer {
 public:
  RegionPrivatizer(Method method, std::vector<PrivateRegion> regions, int ranks)
      : method_(method), ranks_(ranks) {
    add_regions(std::move(regions));
  }

  void activate(int rank) override {
    if (rank == live_) return;
    for (detail::CopyRegion& r : copied_) r.switch_to(live_, rank);
    for (detail::MappedRegion& r : mapped_) r.switch_to(rank);
    live_ = rank;
  }

  void* translate(int rank, void* addr) override {
    if (rank == live_) return addr;
    for (detail::CopyRegion& r : copied_)
      if (char* p = r.saved(rank, addr)) return p;
    for (detail::MappedRegion& r : mapped_)
      if (char* p = r.saved(rank, addr)) return p;
    return addr;
  }

  void restore_global() override { activate(-1); }

  std::size_t bytes_per_rank() const override {
    std::size_t n = 0;
    for (const detail::CopyRegion& r : copied_) n += r.size();
    for (const detail::MappedRegion& r : mapped_) n += r.size();
    return n;
  }

  void add_regions(std::vector<PrivateRegion> regions) override {
    for (const PrivateRegion& r : regions) {
      if (r.live.size() == 0) continue;
      if (is_mapped(r))
        mapped_.emplace_back(r, ranks_, live_);
      else
        copied_.emplace_back(r, ranks_);
    }
  }

 private:
  // Copying costs two memcpy of the region per switch, remapping about a microsecond whatever
  // its size; they cross near 16 KiB on this project's machines (spine_bench, privatize lines).
  bool is_mapped(const PrivateRegion& r) const {
    constexpr std::size_t kCopyUpTo = 16 * 1024;
    if (r.is_thread_local || method_ == Method::Copy) return false;
    return method_ == Method::Mmap || r.live.size() > kCopyUpTo;
  }

  Method method_;
  int ranks_;
  std::vector<detail::CopyRegion> copied_;
  std::vector<detail::MappedRegion> mapped_;
  int live_ = -1;  // -1: the process's own image is live
};

}  // namespace

std::unique_ptr<Privatizer> make_privatizer(const std::string& mode, const ProgramImage& image,
                                            int ranks) {
  if (mode == "none" || !image.captured()) return std::make_unique<SharedGlobals>();
  Method m = mode == "copy" ? Method::Copy : mode == "mmap" ? Method::Mmap : Method::Auto;
  SIMMPI_ASSERT(mode == "auto" || mode == "copy" || mode == "mmap",
                "runtime.privatize=%s passed the registry's choices", mode.c_str());
  return std::make_unique<RegionPrivatizer>(m, image.regions(), ranks);
}

}  // namespace simmpi::runtime
