// SPDX-License-Identifier: Apache-2.0
// FoldMemory: shared blocks of different ranks overlap and share one physical block; partial
// blocks keep their private range; for_each_unfolded yields exactly the unfolded bytes.
#include "runtime/fold/fold_memory.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace simmpi::runtime {
namespace {

constexpr std::uint64_t kBlock = 1 << 20;

FoldMemory& configured() {
  FoldMemory& f = FoldMemory::instance();
  f.configure(4096, kBlock, 4);
  return f;
}

TEST(FoldMemory, RanksShareAddressesAndPhysicalPages) {
  FoldMemory& f = configured();
  auto* a = static_cast<char*>(f.allocate_shared(3 * kBlock, 0));
  auto* b = static_cast<char*>(f.allocate_shared(3 * kBlock, 1));
  EXPECT_EQ(a, b) << "each rank allocates on its own in the same region";
  a[5] = 42;
  EXPECT_EQ(a[kBlock + 5], 42) << "every block-sized stretch maps the same physical block";
  EXPECT_TRUE(f.is_folded(a + 2 * kBlock));
  EXPECT_EQ(f.size_of(a, 0), 3 * kBlock);
  auto* c = static_cast<char*>(f.allocate_shared(100, 0));
  EXPECT_EQ(c, a + 3 * kBlock) << "rank 0's second block follows its first, page-rounded";
  EXPECT_TRUE(f.release(a, 0));
  EXPECT_TRUE(f.release(c, 0));
  EXPECT_TRUE(f.release(b, 1));
  int on_stack = 0;
  EXPECT_FALSE(f.release(&on_stack, 0)) << "not folded memory";
  EXPECT_FALSE(f.is_folded(&on_stack));
}

TEST(FoldMemory, PartialBlockKeepsItsPrivateRange) {
  FoldMemory& f = configured();
  auto* p = static_cast<char*>(f.allocate_partial(10000, 8000, 8100));
  EXPECT_TRUE(f.is_folded(p));
  EXPECT_TRUE(f.is_folded(p + 7999));
  EXPECT_FALSE(f.is_folded(p + 8000));
  EXPECT_FALSE(f.is_folded(p + 8099));
  EXPECT_TRUE(f.is_folded(p + 8100));
  EXPECT_TRUE(f.is_folded(p, 8000)) << "the folded range before the private one";
  EXPECT_FALSE(f.is_folded(p + 7999, 2)) << "a range reaching into the private one";
  EXPECT_FALSE(f.is_folded(p, 0));
  std::memset(p + 8000, 7, 100);  // private memory, written and read back
  EXPECT_EQ(p[8050], 7);
  std::vector<std::pair<std::intptr_t, std::uint64_t>> parts;
  auto base = reinterpret_cast<std::intptr_t>(p);
  f.for_each_unfolded(base + 7000, 2000,
                      [&](std::intptr_t a, std::uint64_t n) { parts.emplace_back(a - base, n); });
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].first, 8000) << "only [8000, 8100) of [7000, 9000) is unfolded";
  EXPECT_EQ(parts[0].second, 100u);
  EXPECT_EQ(f.size_of(p, -1), 12288u) << "10,000 bytes rounded to 3 pages";
  EXPECT_TRUE(f.release(p, -1));
  EXPECT_FALSE(f.is_folded(p + 100)) << "a freed partial block is no longer folded";
}

TEST(FoldMemory, UnfoldedRangesAroundFoldedOnes) {
  FoldMemory& f = configured();
  std::vector<char> heap(100);
  std::vector<std::pair<std::intptr_t, std::uint64_t>> parts;
  auto at = reinterpret_cast<std::intptr_t>(heap.data());
  f.for_each_unfolded(at, 100, [&](std::intptr_t a, std::uint64_t n) { parts.emplace_back(a, n); });
  ASSERT_EQ(parts.size(), 1u) << "ordinary memory is one unfolded range";
  EXPECT_EQ(parts[0].first, at);
  EXPECT_EQ(parts[0].second, 100u);
}

}  // namespace
}  // namespace simmpi::runtime
