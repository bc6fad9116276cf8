// SPDX-License-Identifier: Apache-2.0
// The flattened type map: merging, packing (whole, partial, translated) and element counting,
// each against a layout worked out by hand.
#include "libsimmpi/datatype/type_map.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace simmpi::mpi {
namespace {

std::intptr_t addr(const void* p) {
  return reinterpret_cast<std::intptr_t>(p);
}

TypeMap map_of(std::initializer_list<Run> runs) {
  TypeMap m;
  for (const Run& r : runs) m.append(r);
  return m;
}

std::vector<int> pack_ints(const TypeMap& m, const int* base, std::int64_t count,
                           std::int64_t extent) {
  std::vector<int> out(m.size() * static_cast<std::size_t>(count) / sizeof(int));
  m.pack(addr(base), count, extent, m.size() * static_cast<std::uint64_t>(count),
         reinterpret_cast<char*>(out.data()), AddressMap());
  return out;
}

TEST(TypeMap, AdjacentBlocksOfOneUnitMerge) {
  TypeMap m = map_of({{0, 4, 1, 0, 4}, {4, 4, 1, 0, 4}, {8, 8, 1, 0, 4}});
  ASSERT_EQ(m.runs().size(), 1u);
  EXPECT_EQ(m.runs()[0].len, 16);
  EXPECT_EQ(m.size(), 16u);
  EXPECT_EQ(m.elements(), 4);
  EXPECT_TRUE(m.is_single_block());
}

TEST(TypeMap, EqualBlocksAtAStrideBecomeOneRun) {
  TypeMap m = map_of({{0, 8, 1, 0, 8}, {24, 8, 1, 0, 8}, {48, 8, 1, 0, 8}});
  ASSERT_EQ(m.runs().size(), 1u);
  const mpi::Run& r = m.runs()[0];
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.stride, 24);
  EXPECT_EQ(m.data_lb(), 0);
  EXPECT_EQ(m.data_ub(), 56);
}

TEST(TypeMap, BlocksOfDifferentUnitsStayApart) {
  TypeMap m = map_of({{0, 8, 1, 0, 8}, {8, 4, 1, 0, 4}});  // MPI_DOUBLE_INT's data
  EXPECT_EQ(m.runs().size(), 2u);
  EXPECT_EQ(m.elements(), 2);
}

TEST(TypeMap, CopiesOfOneBlock) {
  TypeMap dense, spread;
  TypeMap one = map_of({{0, 8, 1, 0, 8}});
  dense.append(one, 0, 1000, 8);
  spread.append(one, 0, 1000, 24);
  ASSERT_EQ(dense.runs().size(), 1u);
  EXPECT_EQ(dense.runs()[0].len, 8000);
  ASSERT_EQ(spread.runs().size(), 1u);
  EXPECT_EQ(spread.runs()[0].count, 1000);
  EXPECT_EQ(spread.runs()[0].stride, 24);
}

TEST(TypeMap, CopiesThatContinueAStrideExtendIt) {
  TypeMap col = map_of({{0, 4, 4, 16, 4}});  // a column of a 4x4 int matrix
  TypeMap two;
  two.append(col, 0, 2, 64);  // two matrices one after the other
  ASSERT_EQ(two.runs().size(), 1u);
  EXPECT_EQ(two.runs()[0].count, 8);
}

// MPI_Type_vector(3, 2, 4, MPI_INT): ints 0,1, 4,5, 8,9; extent 40 bytes.
TEST(TypeMap, PacksAVectorElementByElement) {
  TypeMap m = map_of({{0, 8, 3, 16, 4}});
  int a[24];
  for (int i = 0; i < 24; ++i) a[i] = i;
  EXPECT_EQ(pack_ints(m, a, 1, 40), (std::vector<int>{0, 1, 4, 5, 8, 9}));
  EXPECT_EQ(pack_ints(m, a, 2, 40), (std::vector<int>{0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));
}

TEST(TypeMap, NegativeStridesPackBackwards) {
  TypeMap m = map_of({{0, 4, 1, 0, 4}, {-8, 4, 1, 0, 4}, {-16, 4, 1, 0, 4}});
  ASSERT_EQ(m.runs().size(), 1u);
  EXPECT_EQ(m.runs()[0].stride, -8);
  EXPECT_EQ(m.data_lb(), -16);
  EXPECT_EQ(m.data_ub(), 4);
  int a[5] = {10, 11, 12, 13, 14};
  EXPECT_EQ(pack_ints(m, a + 4, 1, 20), (std::vector<int>{14, 12, 10}));
}

TEST(TypeMap, PartialPackStopsInsideABlock) {
  TypeMap m = map_of({{0, 8, 3, 16, 4}});
  unsigned char a[48], out[10];
  for (int i = 0; i < 48; ++i) a[i] = static_cast<unsigned char>(i);
  EXPECT_EQ(m.pack(addr(a), 1, 40, 10, reinterpret_cast<char*>(out), AddressMap()), 10u);
  const unsigned char expect[10] = {0, 1, 2, 3, 4, 5, 6, 7, 16, 17};
  EXPECT_EQ(std::memcmp(out, expect, 10), 0);
}

TEST(TypeMap, ShortInputFillsPartOfTheLastElement) {
  TypeMap m = map_of({{0, 4, 2, 8, 4}});  // ints 0 and 2 of each 4-int element
  int in[3] = {7, 8, 9}, a[8];
  for (int& x : a) x = -1;
  EXPECT_EQ(m.unpack(reinterpret_cast<const char*>(in), 12, addr(a), 2, 16, AddressMap()), 12u);
  EXPECT_EQ(std::vector<int>(a, a + 8), (std::vector<int>{7, -1, 8, -1, 9, -1, -1, -1}));
}

TEST(TypeMap, CountsBasicElementsOfPartialData) {
  TypeMap m = map_of({{0, 8, 1, 0, 8}, {8, 4, 1, 0, 4}});  // double, int: 12 bytes
  EXPECT_EQ(m.count_elements(0), 0);
  EXPECT_EQ(m.count_elements(12), 2);
  EXPECT_EQ(m.count_elements(20), 3);  // a pair and a double
  EXPECT_EQ(m.count_elements(24), 4);
  EXPECT_EQ(m.count_elements(16), -1);  // a pair and half a double
}

// Addresses go through the map: a rank's globals may live in a privatizer copy.
TEST(TypeMap, PackReadsThroughTheAddressMap) {
  struct Shift : AddressMap {
    std::intptr_t by;
    explicit Shift(std::intptr_t b) : by(b) {}
    char* at(std::intptr_t a) const override { return reinterpret_cast<char*>(a + by); }
  };
  TypeMap m = map_of({{0, 4, 2, 8, 4}});
  int real[4] = {1, 2, 3, 4}, shadow[4] = {0, 0, 0, 0}, out[2];
  Shift shift(addr(real) - addr(shadow));
  m.pack(addr(shadow), 1, 16, 8, reinterpret_cast<char*>(out), shift);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 3);
}

// Copies of a map of several runs are one run of copies, whatever their number.
TEST(TypeMap, CopiesOfSeveralRunsNest) {
  TypeMap pair = map_of({{0, 4, 1, 0, 4}, {8, 4, 1, 0, 4}});  // ints 0 and 2 of 4
  TypeMap many;
  many.append(pair, 0, 1000000, 16);
  ASSERT_EQ(many.runs().size(), 1u);
  EXPECT_EQ(many.size(), 8000000u);
  EXPECT_EQ(many.elements(), 2000000);
  EXPECT_EQ(many.data_ub(), 16 * 999999 + 12);
  TypeMap three;
  three.append(pair, 4, 3, 16);
  int a[20];
  for (int i = 0; i < 20; ++i) a[i] = i;
  EXPECT_EQ(pack_ints(three, a, 1, 48), (std::vector<int>{1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(pack_ints(three, a, 2, 20),
            (std::vector<int>{1, 3, 5, 7, 9, 11, 6, 8, 10, 12, 14, 16}));
  EXPECT_EQ(three.count_elements(16), 4);
  EXPECT_EQ(three.count_elements(18), -1);
}

TEST(TypeMap, CopiesShareRunsUntilOneChanges) {
  TypeMap a = map_of({{0, 4, 1, 0, 4}});
  TypeMap b = a;
  b.append(mpi::Run{16, 4, 1, 0, 4});
  EXPECT_EQ(a.runs().size(), 1u);
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(b.size(), 8u);
}

}  // namespace
}  // namespace simmpi::mpi
