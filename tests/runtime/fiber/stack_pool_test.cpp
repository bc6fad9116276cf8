// SPDX-License-Identifier: Apache-2.0
#include "runtime/fiber/stack_pool.hpp"

#include <gtest/gtest.h>

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
  char* bottom1 = top1 - pool.stack_bytes();
  std::memset(bottom1 - 8, 0, 8);
  EXPECT_FALSE(pool.canary_intact(1));
  EXPECT_EQ(pool.guard_slot(bottom1 - 8), std::optional<std::size_t>(1));
  EXPECT_EQ(pool.guard_slot(bottom1 + 100), std::nullopt);
}

TEST(StackPoolDeathTest, GuardPageFaults) {
  StackPool pool(16384, 1, 1);
  char* top = static_cast<char*>(pool.prepare(0));
  EXPECT_DEATH(*(volatile char*)(top - pool.stack_bytes() - 1) = 1, "");
}

}  // namespace simmpi::runtime
