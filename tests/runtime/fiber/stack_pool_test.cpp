// SPDX-License-Identifier: Apache-2.0
#include "runtime/fiber/stack_pool.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace simmpi::runtime {

TEST(StackPool, SlotsAreDisjointAndPageRounded) {
  StackPool pool(10000, 4, 2);
  EXPECT_EQ(pool.stack_bytes() % 4096, 0u);
  EXPECT_GE(pool.stack_bytes(), 10000u);
  char* a = static_cast<char*>(pool.prepare(0));
  char* b = static_cast<char*>(pool.prepare(1));
  EXPECT_GE(b - a, static_cast<std::ptrdiff_t>(pool.stack_bytes()));
}

TEST(StackPool, GuardPagesWithinBudgetCanariesBeyond) {
  StackPool pool(16384, 3, 1);
  EXPECT_TRUE(pool.has_guard(0));
  EXPECT_FALSE(pool.has_guard(1));
  char* top1 = static_cast<char*>(pool.prepare(1));
  EXPECT_TRUE(pool.canary_intact(1));
  // A fiber running 8 bytes past the bottom of slot 1's stack hits its canary.
  char* bottom1 = top1 - (pool.stack_bytes() - StackPool::kCanaryBytes);
  std::memset(bottom1 - 8, 0, 8);
  EXPECT_FALSE(pool.canary_intact(1));
  EXPECT_EQ(pool.guard_slot(bottom1 - 8), std::optional<std::size_t>(1));
  EXPECT_EQ(pool.guard_slot(bottom1 + 100), std::nullopt);
}

// An unguarded slot's canary shares the page of the stack top below it (one page of memory per
// shallow stack, not two), and running through it is still caught and named.
TEST(StackPool, CanarySharesThePageOfTheStackTopBelow) {
  StackPool pool(16384, 3, 0);
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  char* top0 = static_cast<char*>(pool.prepare(0));
  char* top1 = static_cast<char*>(pool.prepare(1));
  char* bottom1 = top1 - (pool.stack_bytes() - StackPool::kCanaryBytes);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(top0 - 1) / page,
            reinterpret_cast<std::uintptr_t>(bottom1 - 1) / page);
  // Slot 0's own frames reach up to its top, below slot 1's canary, and leave it intact.
  std::memset(top0 - 512, 0xAB, 512);
  EXPECT_TRUE(pool.canary_intact(1));
  EXPECT_TRUE(pool.canary_intact(0));
  // Slot 0 has no slot below: its canary lies in the region's lead page.
  char* bottom0 = top0 - (pool.stack_bytes() - StackPool::kCanaryBytes);
  EXPECT_EQ(pool.guard_slot(bottom0 - 1), std::optional<std::size_t>(0));
  std::memset(bottom0 - 1, 0, 1);
  EXPECT_FALSE(pool.canary_intact(0));
  EXPECT_EQ(pool.guard_slot(bottom1 - StackPool::kCanaryBytes), std::optional<std::size_t>(1));
  EXPECT_EQ(pool.guard_slot(bottom1 - StackPool::kCanaryBytes - 1), std::nullopt);
  EXPECT_EQ(pool.guard_slot(top1), std::optional<std::size_t>(2));  // right above slot 1's top
}

TEST(StackPoolDeathTest, GuardPageFaults) {
  StackPool pool(16384, 1, 1);
  char* top = static_cast<char*>(pool.prepare(0));
  EXPECT_DEATH(*(volatile char*)(top - pool.stack_bytes() - 1) = 1, "");
}

}  // namespace simmpi::runtime
