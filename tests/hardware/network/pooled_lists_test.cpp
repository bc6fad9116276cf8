// SPDX-License-Identifier: Apache-2.0
// Pooled lists hold what a vector per list would, in the same order, while lists grow, shrink,
// empty, move between their heads and blocks, and reuse each other's blocks.
#include "hardware/network/pooled_lists.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace simmpi::hardware {
namespace {

using Lists = PooledLists<std::uint64_t>;

std::vector<std::uint64_t> contents(const Lists& pool, const Lists::Head& h) {
  return std::vector<std::uint64_t>(pool.begin(h), pool.end(h));
}

TEST(PooledLists, MatchVectorsWhileListsGrowShrinkAndReuseBlocks) {
  Lists pool;
  std::vector<Lists::Head> heads(500);
  std::vector<std::vector<std::uint64_t>> reference(500);
  std::mt19937_64 random(5);
  for (int step = 0; step < 200000; ++step) {
    const std::size_t l = random() % heads.size();
    std::vector<std::uint64_t>& ref = reference[l];
    // Lists drift between empty and a few dozen cells (past several block sizes).
    // (Few distinct values, so that lists hold repeats: erase takes the first equal cell.)
    if (ref.empty() || random() % 100 < 52) {
      const std::uint64_t v = random() % 16;
      pool.push_back(heads[l], v);
      ref.push_back(v);
    } else {  // remove a cell anywhere: the last one takes its place
      const std::uint64_t v = ref[random() % ref.size()];
      pool.erase(heads[l], v);
      auto i = std::find(ref.begin(), ref.end(), v);
      *i = ref.back();
      ref.pop_back();
    }
    ASSERT_EQ(Lists::size(heads[l]), ref.size());
  }
  for (std::size_t l = 0; l < heads.size(); ++l)
    ASSERT_EQ(contents(pool, heads[l]), reference[l]) << "list " << l;
}

TEST(PooledLists, ShortListsLieInOneCacheLine) {
  Lists pool;
  std::vector<Lists::Head> heads(64);
  for (std::size_t l = 0; l < heads.size(); ++l)
    for (std::size_t n = 0; n <= l % 8; ++n) pool.push_back(heads[l], n);
  for (const Lists::Head& h : heads) {
    const auto first = reinterpret_cast<std::uintptr_t>(pool.begin(h));
    const auto last = reinterpret_cast<std::uintptr_t>(pool.end(h)) - 1;
    EXPECT_EQ(first / 64, last / 64) << Lists::size(h) << " cells";
  }
}

TEST(PooledLists, AListOfOneLivesInItsHead) {
  Lists pool;
  Lists::Head h;
  pool.push_back(h, 7);
  const auto head = reinterpret_cast<std::uintptr_t>(&h);
  auto in_head = [&](const std::uint64_t* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    return at >= head && at < head + sizeof h;
  };
  EXPECT_TRUE(in_head(pool.begin(h)));
  pool.push_back(h, 8);  // a second cell: a block
  EXPECT_FALSE(in_head(pool.begin(h)));
  EXPECT_EQ(contents(pool, h), (std::vector<std::uint64_t>{7, 8}));
  pool.erase(h, 7);  // back to one: the last cell took the hole, and the head keeps it
  EXPECT_TRUE(in_head(pool.begin(h)));
  EXPECT_EQ(contents(pool, h), std::vector<std::uint64_t>{8});
  pool.erase(h, 8);
  EXPECT_EQ(Lists::size(h), 0u);
}

TEST(PooledLists, AnEmptiedListsBlockIsReused) {
  Lists pool;
  Lists::Head a, b;
  pool.push_back(a, 1);
  pool.push_back(a, 2);
  const std::uint64_t* block = pool.begin(a);
  pool.pop_back(a);  // one left: its block goes back
  EXPECT_EQ(Lists::size(a), 1u);
  pool.push_back(b, 3);
  pool.push_back(b, 4);
  EXPECT_EQ(pool.begin(b), block);
  EXPECT_EQ(contents(pool, b), (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(contents(pool, a), std::vector<std::uint64_t>{1});
}

}  // namespace
}  // namespace simmpi::hardware
