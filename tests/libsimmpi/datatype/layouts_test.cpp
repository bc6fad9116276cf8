// SPDX-License-Identifier: Apache-2.0
// Layouts of derived datatypes against hand-computed sizes, bounds and type maps, and the
// predefined pair types against the sizes of a real MPI.
#include "libsimmpi/datatype/layouts.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simmpi::mpi {
namespace {

const Datatype& predefined(MPI_Datatype h) {
  return *find_datatype(h, -1);
}

// The ints `t` selects from `base` (count elements), in packing order.
std::vector<int> selected(const Datatype& t, const int* base, int count = 1) {
  std::vector<int> out(t.size * static_cast<std::size_t>(count) / sizeof(int));
  pack(base, count, t, out.data());
  return out;
}

std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

TEST(Layouts, PairTypesSkipTheirPadding) {
  const Datatype& di = predefined(MPI_DOUBLE_INT);
  EXPECT_EQ(di.size, 12u);
  EXPECT_EQ(di.extent, 16);
  EXPECT_EQ(di.true_extent, 12);
  EXPECT_FALSE(di.contiguous);
  const Datatype& si = predefined(MPI_SHORT_INT);
  EXPECT_EQ(si.size, 6u);
  EXPECT_EQ(si.extent, 8);
  EXPECT_EQ(si.map.runs()[1].disp, 4);  // the int after two bytes of padding
  EXPECT_TRUE(predefined(MPI_FLOAT_INT).contiguous);
  EXPECT_EQ(predefined(MPI_LONG_DOUBLE_INT).size, sizeof(long double) + 4);
}

TEST(Layouts, ContiguousOfDoublesIsContiguousAndReducible) {
  auto t = contiguous_layout(3, predefined(MPI_DOUBLE));
  EXPECT_EQ(t->size, 24u);
  EXPECT_EQ(t->extent, 24);
  EXPECT_TRUE(t->contiguous);
  EXPECT_EQ(t->elem, Elem::F64);
  EXPECT_EQ(t->basic_size, 8u);
}

// MPI_Type_vector(3, 2, 4, MPI_INT).
TEST(Layouts, Vector) {
  auto t = hvector_layout(3, 2, 16, predefined(MPI_INT));
  EXPECT_EQ(t->size, 24u);
  EXPECT_EQ(t->lb, 0);
  EXPECT_EQ(t->extent, 40);
  EXPECT_EQ(t->true_extent, 40);
  EXPECT_FALSE(t->contiguous);
  std::vector<int> a = iota(24);
  EXPECT_EQ(selected(*t, a.data(), 2),
            (std::vector<int>{0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));
}

// MPI_Type_vector(3, 1, -2, MPI_INT): elements 0, -2, -4 of the buffer.
TEST(Layouts, VectorWithNegativeStride) {
  auto t = hvector_layout(3, 1, -8, predefined(MPI_INT));
  EXPECT_EQ(t->lb, -16);
  EXPECT_EQ(t->extent, 20);
  EXPECT_EQ(t->true_lb, -16);
  std::vector<int> a = iota(5);
  EXPECT_EQ(selected(*t, a.data() + 4), (std::vector<int>{4, 2, 0}));
}

// MPI_Type_indexed(3, {2, 0, 1}, {4, 0, 1}, MPI_INT): the empty block does not count.
TEST(Layouts, IndexedSkipsEmptyBlocks) {
  const Datatype& i = predefined(MPI_INT);
  Block blocks[3] = {{16, 2, &i}, {0, 0, &i}, {4, 1, &i}};
  auto t = hindexed_layout(3, i, [&](std::int64_t k) { return blocks[k]; });
  EXPECT_EQ(t->size, 12u);
  EXPECT_EQ(t->lb, 4);
  EXPECT_EQ(t->extent, 20);
  EXPECT_EQ(t->true_lb, 4);
  std::vector<int> a = iota(6);
  EXPECT_EQ(selected(*t, a.data()), (std::vector<int>{4, 5, 1}));
}

// struct { int a; double b; char c; }: ub 17 is padded to 24, the struct's sizeof.
TEST(Layouts, StructIsPaddedToItsAlignment) {
  Block blocks[3] = {{0, 1, &predefined(MPI_INT)},
                     {8, 1, &predefined(MPI_DOUBLE)},
                     {16, 1, &predefined(MPI_CHAR)}};
  auto t = struct_layout(3, [&](std::int64_t k) { return blocks[k]; });
  EXPECT_EQ(t->size, 13u);
  EXPECT_EQ(t->extent, 24);
  EXPECT_EQ(t->true_extent, 17);
  EXPECT_EQ(t->align, 8u);
  EXPECT_EQ(t->elem, Elem::None);  // mixed kinds: not reducible
}

TEST(Layouts, StructOfOneKindKeepsItsKind) {
  Block blocks[2] = {{0, 2, &predefined(MPI_DOUBLE)}, {16, 1, &predefined(MPI_DOUBLE)}};
  auto t = struct_layout(2, [&](std::int64_t k) { return blocks[k]; });
  EXPECT_EQ(t->elem, Elem::F64);
  EXPECT_TRUE(t->contiguous);
  EXPECT_EQ(t->size, 24u);
}

// MPI_Type_create_resized(MPI_INT, -4, 16), then two of them.
TEST(Layouts, ResizedMovesBoundsNotData) {
  auto r = resized_layout(predefined(MPI_INT), -4, 16);
  EXPECT_EQ(r->lb, -4);
  EXPECT_EQ(r->extent, 16);
  EXPECT_EQ(r->true_lb, 0);
  EXPECT_EQ(r->true_extent, 4);
  EXPECT_FALSE(r->contiguous);
  auto two = contiguous_layout(2, *r);
  EXPECT_EQ(two->lb, -4);
  EXPECT_EQ(two->extent, 32);
  std::vector<int> a = iota(8);
  EXPECT_EQ(selected(*two, a.data()), (std::vector<int>{0, 4}));
}

TEST(Layouts, NoDataMeansNoBounds) {
  auto empty = contiguous_layout(0, predefined(MPI_INT));
  EXPECT_EQ(empty->size, 0u);
  EXPECT_EQ(empty->extent, 0);
  auto blockless = hvector_layout(3, 0, 64, predefined(MPI_DOUBLE));
  EXPECT_EQ(blockless->extent, 0);
}

// A 2x3 block at (1, 2) of a 4x6 int array.
TEST(Layouts, SubarrayInCOrder) {
  int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  auto t = subarray_layout(2, sizes, subsizes, starts, ArrayOrder::C, predefined(MPI_INT));
  EXPECT_EQ(t->size, 24u);
  EXPECT_EQ(t->lb, 0);
  EXPECT_EQ(t->extent, 96);
  EXPECT_EQ(t->true_lb, 32);
  EXPECT_EQ(t->true_extent, 36);
  std::vector<int> a = iota(24);
  EXPECT_EQ(selected(*t, a.data()), (std::vector<int>{8, 9, 10, 14, 15, 16}));
}

TEST(Layouts, SubarrayInFortranOrder) {
  int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  auto t = subarray_layout(2, sizes, subsizes, starts, ArrayOrder::Fortran, predefined(MPI_INT));
  std::vector<int> a = iota(24);
  EXPECT_EQ(selected(*t, a.data()), (std::vector<int>{9, 10, 13, 14, 17, 18}));
}

std::unique_ptr<Datatype> darray(int rank, std::vector<DarrayDim> dims, ArrayOrder order) {
  return darray_layout(rank, static_cast<int>(dims.size()), dims.data(), order,
                       predefined(MPI_INT));
}

// A 4x7 array on a 2x2 grid: rows in blocks of 2, columns cyclic in blocks of 2 (the last
// cycle is short: process column 1 owns columns 2, 3 and 6).
TEST(Layouts, DarrayBlockByCyclic) {
  std::vector<DarrayDim> dims = {{4, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 2},
                                 {7, MPI_DISTRIBUTE_CYCLIC, 2, 2}};
  std::vector<int> a = iota(28);
  auto r1 = darray(1, dims, ArrayOrder::C);
  EXPECT_EQ(r1->lb, 0);
  EXPECT_EQ(r1->extent, 112);
  EXPECT_EQ(selected(*r1, a.data()), (std::vector<int>{2, 3, 6, 9, 10, 13}));
  auto r2 = darray(2, dims, ArrayOrder::C);
  EXPECT_EQ(selected(*r2, a.data()), (std::vector<int>{14, 15, 18, 19, 21, 22, 25, 26}));
}

// Fortran order: a 5x3 array, the first dimension cyclic over 2 processes.
TEST(Layouts, DarrayFortranCyclic) {
  std::vector<DarrayDim> dims = {{5, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2},
                                 {3, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 1}};
  std::vector<int> a = iota(15);
  auto t = darray(1, dims, ArrayOrder::Fortran);
  EXPECT_EQ(t->extent, 60);
  EXPECT_EQ(selected(*t, a.data()), (std::vector<int>{1, 3, 6, 8, 11, 13}));
}

// C order, the slow dimension cyclic by 2 over 2 processes: process 0 owns rows 0, 1 and 4 of
// a 5x3 array (the last block is short), process 1 rows 2 and 3.
TEST(Layouts, DarrayCyclicInTheSlowDimension) {
  std::vector<DarrayDim> dims = {{5, MPI_DISTRIBUTE_CYCLIC, 2, 2},
                                 {3, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_DFLT_DARG, 1}};
  std::vector<int> a = iota(15);
  EXPECT_EQ(selected(*darray(0, dims, ArrayOrder::C), a.data()),
            (std::vector<int>{0, 1, 2, 3, 4, 5, 12, 13, 14}));
  EXPECT_EQ(selected(*darray(1, dims, ArrayOrder::C), a.data()),
            (std::vector<int>{6, 7, 8, 9, 10, 11}));
}

// Block of 4 over 2 processes for 5 elements: the second process gets one.
TEST(Layouts, DarrayExplicitBlockSize) {
  std::vector<DarrayDim> dims = {{5, MPI_DISTRIBUTE_BLOCK, 4, 2}};
  std::vector<int> a = iota(5);
  EXPECT_EQ(selected(*darray(0, dims, ArrayOrder::C), a.data()), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(selected(*darray(1, dims, ArrayOrder::C), a.data()), (std::vector<int>{4}));
}

// Every element of a 3x5x4 array belongs to exactly one of the 6 processes.
TEST(Layouts, DarrayPartsCoverTheArrayOnce) {
  std::vector<DarrayDim> dims = {{3, MPI_DISTRIBUTE_CYCLIC, 2, 2},
                                 {5, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 3},
                                 {4, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_DFLT_DARG, 1}};
  for (ArrayOrder order : {ArrayOrder::C, ArrayOrder::Fortran}) {
    std::vector<int> a = iota(60), seen(60, 0);
    for (int r = 0; r < 6; ++r) {
      auto t = darray(r, dims, order);
      EXPECT_EQ(t->extent, 240);
      for (int x : selected(*t, a.data())) ++seen[static_cast<std::size_t>(x)];
    }
    EXPECT_EQ(seen, std::vector<int>(60, 1));
  }
}

}  // namespace
}  // namespace simmpi::mpi
