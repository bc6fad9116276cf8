// SPDX-License-Identifier: Apache-2.0
// An allocator for the large arrays that a simulation reaches at random (a million endpoints'
// links, sources and flows): blocks of 2 MiB and more are mapped on their own and marked for
// transparent huge pages (madvise(MADV_HUGEPAGE), which Debian's default THP mode "madvise"
// waits for), smaller ones come from malloc. A random access into a gigabyte of 4 KiB pages
// misses the TLB almost every time, and in a virtual machine each miss walks two sets of page
// tables; with 2 MiB pages the same gigabyte needs 512 TLB entries instead of 262,144.
//
// Where the kernel gives no huge pages (THP "never", no contiguous memory) the mapping works
// as ordinary pages. Memory is zeroed by the kernel and touched lazily, as malloc's large
// blocks are.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace simmpi::runtime {

// Blocks of at least this size are mapped and advised; smaller ones come from operator new,
// aligned to a cache line (as mapped ones are), so that the array's layout in lines does not
// depend on its size.
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
inline constexpr std::size_t kCacheLineBytes = 64;

// `bytes` of memory aligned to kHugePageBytes, advised for huge pages; throws std::bad_alloc.
void* map_huge_pages(std::size_t bytes);
void unmap_huge_pages(void* block, std::size_t bytes);

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;
  static constexpr std::size_t kSmallAlign = alignof(T) > kCacheLineBytes ? alignof(T)
                                                                          : kCacheLineBytes;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT: allocators convert implicitly

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kHugePageBytes) return static_cast<T*>(map_huge_pages(bytes));
    return static_cast<T*>(::operator new (bytes, std::align_val_t{kSmallAlign}));
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kHugePageBytes)
      unmap_huge_pages(p, bytes);
    else
      ::operator delete (p, std::align_val_t{kSmallAlign});
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

// A vector of such an array.
template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace simmpi::runtime
