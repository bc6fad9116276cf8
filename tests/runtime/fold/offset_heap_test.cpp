// SPDX-License-Identifier: Apache-2.0
// OffsetHeap: first fit, coalescing, the top shrinking back, capacity.
#include "runtime/fold/offset_heap.hpp"

#include <gtest/gtest.h>

namespace simmpi::runtime {
namespace {

TEST(OffsetHeap, FirstFitReusesAndMergesFreedRanges) {
  OffsetHeap h(1000);
  EXPECT_EQ(h.allocate(100), 0u);
  EXPECT_EQ(h.allocate(200), 100u);
  EXPECT_EQ(h.allocate(300), 300u);
  EXPECT_EQ(h.release(100), 200u);
  EXPECT_EQ(h.allocate(50), 100u) << "first fit: the hole [100, 300)";
  EXPECT_EQ(h.release(0), 100u);
  EXPECT_EQ(h.release(100), 50u);
  EXPECT_EQ(h.allocate(300), 0u) << "[0, 100) + [100, 150) + [150, 300) merged into one hole";
  EXPECT_EQ(h.used_bytes(), 600u);
}

TEST(OffsetHeap, FreeingTheTopLowersIt) {
  OffsetHeap h(1000);
  h.allocate(100);
  h.allocate(100);
  EXPECT_EQ(h.top(), 200u);
  h.release(0);
  h.release(100);
  EXPECT_EQ(h.top(), 0u) << "both ranges freed: the top is back at 0, no hole left";
  EXPECT_EQ(h.allocate(1000), 0u) << "the whole capacity fits again";
}

TEST(OffsetHeap, CapacityAndUnknownOffsets) {
  OffsetHeap h(100);
  EXPECT_EQ(h.allocate(101), OffsetHeap::kFailed);
  EXPECT_EQ(h.allocate(100), 0u);
  EXPECT_EQ(h.allocate(1), OffsetHeap::kFailed);
  EXPECT_EQ(h.release(7), 0u) << "not the start of a range";
  EXPECT_EQ(h.size_at(0), 100u);
}

}  // namespace
}  // namespace simmpi::runtime
