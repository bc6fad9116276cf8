// SPDX-License-Identifier: Apache-2.0
// The privatizer factory and what both methods share: the image a rank starts from.
#include "runtime/privatize/privatizer.hpp"

#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/privatize/detail/methods.hpp"

namespace simmpi::runtime {
namespace detail {

std::vector<char> fresh_rank_image(const ProgramImage& image) {
  ByteRange seg = image.writable();
  std::vector<char> fresh = image.pristine();
  for (const ByteRange& r : image.copy_relocations()) {
    if (r.begin < seg.begin || r.end > seg.end) continue;
    std::memcpy(fresh.data() + (r.begin - seg.begin), r.begin, r.size());
  }
  return fresh;
}

namespace {
class SharedGlobals final : public Privatizer {
 public:
  void activate(int) override {}
  void* translate(int, void* addr) override { return addr; }
  void restore_global() override {}
  std::size_t bytes_per_rank() const override { return 0; }
  bool is_private() const override { return false; }
};
}  // namespace

}  // namespace detail

std::unique_ptr<Privatizer> make_privatizer(const std::string& mode, const ProgramImage& image,
                                            int ranks) {
  if (mode == "none" || !image.captured()) return std::make_unique<detail::SharedGlobals>();
  // Copying costs two memcpy of the segment per switch, remapping about a microsecond whatever
  // its size; they cross near 16 KiB on this project's machines (spine_bench, privatize lines).
  constexpr std::size_t kCopyUpTo = 16 * 1024;
  if (mode == "copy" || (mode == "auto" && image.writable().size() <= kCopyUpTo))
    return detail::make_copy_privatizer(image, ranks);
  if (mode == "auto") return detail::make_mmap_privatizer(image, ranks);
  if (mode == "mmap") return detail::make_mmap_privatizer(image, ranks);
  SIMMPI_ASSERT(false, "runtime.privatize=%s passed the registry's choices", mode.c_str());
  return nullptr;
}

}  // namespace simmpi::runtime
