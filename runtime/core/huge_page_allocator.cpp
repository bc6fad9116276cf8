// SPDX-License-Identifier: Apache-2.0
// Mapping blocks aligned to a huge page and advising them.
#include "runtime/core/huge_page_allocator.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace simmpi::runtime {
namespace {

std::size_t rounded_up(std::size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

}  // namespace

void* map_huge_pages(std::size_t bytes) {
  // Over-map by one huge page and trim both ends, so that the block starts on a 2 MiB boundary
  // (a huge page needs one).
  const std::size_t size = rounded_up(bytes);
  const std::size_t span = size + kHugePageBytes;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t tail = start + span - (aligned + size);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + size), tail);
  auto* block = reinterpret_cast<void*>(aligned);
  madvise(block, size, MADV_HUGEPAGE);  // advice: without THP the pages are ordinary ones
  return block;
}

void unmap_huge_pages(void* block, std::size_t bytes) {
  munmap(block, rounded_up(bytes));
}

}  // namespace simmpi::runtime
