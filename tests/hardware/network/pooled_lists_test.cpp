// SPDX-License-Identifier: Apache-2.0
// Pooled lists hold what a vector per list would, in the same order, while lists grow, shrink,
// empty and reuse each other's blocks.
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

TEST(PooledLists, AnEmptiedListsBlockIsReused) {
  Lists pool;
  Lists::Head a, b;
  pool.push_back(a, 1);
  const std::uint64_t* block = pool.begin(a);
  pool.pop_back(a);
  EXPECT_EQ(Lists::size(a), 0u);
  pool.push_back(b, 2);
  EXPECT_EQ(pool.begin(b), block);
  EXPECT_EQ(contents(pool, b), std::vector<std::uint64_t>{2});
}

}  // namespace
}  // namespace simmpi::hardware
