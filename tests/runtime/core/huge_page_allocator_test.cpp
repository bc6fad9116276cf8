// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/huge_page_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace simmpi::runtime {
namespace {

bool is_huge_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes == 0;
}

// The flags the kernel shows for the mapping that holds `p` (VmFlags of /proc/self/smaps).
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &lo, &hi) == 2 && line.find(' ') < 40)
      inside = addr >= lo && addr < hi;
    else if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

TEST(HugePageAllocator, LargeBlocksAreAlignedAdvisedAndZeroed) {
  HugePageVector<std::int64_t> v(3 * kHugePageBytes / sizeof(std::int64_t) + 5);
  EXPECT_TRUE(is_huge_aligned(v.data()));
  for (std::size_t i = 0; i < v.size(); i += 4096) ASSERT_EQ(v[i], 0) << i;
  v.back() = 7;  // the last cell, past the whole huge pages, is writable
  EXPECT_EQ(v.back(), 7);
  // "hg": MADV_HUGEPAGE took (the kernel shows it whatever the THP mode, when it has THP).
  if (std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good()) {
    EXPECT_NE(vm_flags_of(v.data()).find(" hg"), std::string::npos) << vm_flags_of(v.data());
  }
}

TEST(HugePageAllocator, GrowingKeepsTheContents) {
  HugePageVector<std::int32_t> v;
  for (std::int32_t i = 0; i < 2'000'000; ++i) v.push_back(i);  // moves to mapped blocks
  for (std::int32_t i = 0; i < 2'000'000; i += 999) ASSERT_EQ(v[static_cast<std::size_t>(i)], i);
  EXPECT_TRUE(is_huge_aligned(v.data()));
}

TEST(HugePageAllocator, SmallBlocksComeFromTheHeap) {
  HugePageVector<double> v(100, 1.5);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kCacheLineBytes, 0u);
  EXPECT_EQ(vm_flags_of(v.data()).find(" hg"), std::string::npos);
  EXPECT_EQ(v[99], 1.5);
}

}  // namespace
}  // namespace simmpi::runtime
