// SPDX-License-Identifier: Apache-2.0
// The two libraries' selection rules against cases read off their sources: Open MPI 4.1's
// coll_tuned_decision_fixed.c and MPICH 3.3's MPIR_*_intra_auto with default CVARs.
#include "libsimmpi/coll/selection.hpp"

#include <gtest/gtest.h>

namespace simmpi::mpi {
namespace {

CollQuery q(int size, std::size_t bytes) {
  CollQuery x;
  x.size = size;
  x.bytes = x.total_bytes = bytes;
  x.count = static_cast<int>(bytes / 4);
  return x;
}
CollQuery noncommutative(CollQuery x) {
  x.commutative = false;
  x.builtin_op = false;
  return x;
}
CollQuery total(CollQuery x, std::size_t bytes) {
  x.total_bytes = bytes;
  return x;
}

TEST(SelectOmpi, Allreduce) {
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(2, 4)), Algo::Ring);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(2, 100)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(2, 5000)), Algo::Ring);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(2, 200000)), Algo::SegmentedRing);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(2, 1000000)), Algo::Rabenseifner);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(16, 32)), Algo::SegmentedRing);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(16, 100)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(64, 200000)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(1000, 1000)), Algo::Nonoverlapping);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(1000, 10000)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_ompi(Coll::Allreduce, q(1000, 100000)), Algo::Rabenseifner);
  EXPECT_EQ(select_ompi(Coll::Allreduce, noncommutative(q(2, 1000000))), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Allreduce, noncommutative(q(200, 100))), Algo::Nonoverlapping);
  EXPECT_EQ(select_ompi(Coll::Allreduce, noncommutative(q(64, 1000000))), Algo::RecursiveDoubling);
}

TEST(SelectOmpi, Bcast) {
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 16)), Algo::Pipeline);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 100)), Algo::BinaryTree);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 600)), Algo::Knomial);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 2000)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 200000)), Algo::Chain);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 600000)), Algo::Binomial);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(2, 2000000)), Algo::BinaryTree);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(20, 100)), Algo::Knomial);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(20, 100000)), Algo::Binomial);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(20, 2000000)), Algo::ScatterAllgather);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(300, 20000)), Algo::SplitBinaryTree);
  EXPECT_EQ(select_ompi(Coll::Bcast, q(5000, 10000)), Algo::BinaryTree);
}

TEST(SelectOmpi, ReduceBarrierGatherScatter) {
  EXPECT_EQ(select_ompi(Coll::Reduce, q(5, 100)), Algo::BinaryTree);
  EXPECT_EQ(select_ompi(Coll::Reduce, q(5, 10000)), Algo::Chain);
  EXPECT_EQ(select_ompi(Coll::Reduce, q(2, 4)), Algo::Rabenseifner);
  EXPECT_EQ(select_ompi(Coll::Reduce, q(100, 100)), Algo::Binomial);
  EXPECT_EQ(select_ompi(Coll::Reduce, noncommutative(q(10, 2000))), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Reduce, noncommutative(q(100, 2000))), Algo::InOrderBinaryTree);
  EXPECT_EQ(select_ompi(Coll::Barrier, q(2, 0)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_ompi(Coll::Barrier, q(5, 0)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Barrier, q(100, 0)), Algo::Dissemination);
  EXPECT_EQ(select_ompi(Coll::Barrier, q(300, 0)), Algo::Tree);
  EXPECT_EQ(select_ompi(Coll::Gather, q(2, 1)), Algo::LinearSync);
  EXPECT_EQ(select_ompi(Coll::Gather, q(2, 100)), Algo::Binomial);
  EXPECT_EQ(select_ompi(Coll::Gather, q(5, 2000)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Gather, q(300, 4000)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Scatter, q(2, 1)), Algo::LinearNb);
  EXPECT_EQ(select_ompi(Coll::Scatter, q(2, 100)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Scatter, q(5, 100)), Algo::Binomial);
  EXPECT_EQ(select_ompi(Coll::Scatter, q(100, 1000)), Algo::LinearNb);
  EXPECT_EQ(select_ompi(Coll::Gatherv, q(8, 100)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Scatterv, q(8, 100)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Scan, q(8, 100)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Exscan, q(8, 100)), Algo::Linear);
}

TEST(SelectOmpi, AllgatherAlltoallReduceScatter) {
  EXPECT_EQ(select_ompi(Coll::Allgather, q(2, 100)), Algo::Ring);
  EXPECT_EQ(select_ompi(Coll::Allgather, q(16, 100000)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_ompi(Coll::Allgather, q(40, 2000)), Algo::NeighborExchange);
  EXPECT_EQ(select_ompi(Coll::Allgather, q(40, 100000)), Algo::Ring);
  EXPECT_EQ(select_ompi(Coll::Allgather, q(300, 64)), Algo::Bruck);
  EXPECT_EQ(select_ompi(Coll::Allgatherv, q(5, 100)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Allgatherv, q(5, 1000)), Algo::NeighborExchange);
  EXPECT_EQ(select_ompi(Coll::Alltoall, q(2, 100)), Algo::Pairwise);
  EXPECT_EQ(select_ompi(Coll::Alltoall, q(2, 100000)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Alltoall, q(5, 600000)), Algo::Pairwise);
  EXPECT_EQ(select_ompi(Coll::Alltoall, q(40, 100)), Algo::Bruck);
  EXPECT_EQ(select_ompi(Coll::Alltoall, q(40, 1000)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::Alltoall, q(200, 300000)), Algo::Pairwise);
  EXPECT_EQ(select_ompi(Coll::Alltoallv, q(100, 0)), Algo::Pairwise);
  EXPECT_EQ(select_ompi(Coll::Alltoallv, q(10, 0)), Algo::Linear);
  EXPECT_EQ(select_ompi(Coll::ReduceScatter, q(2, 100000)), Algo::RecursiveHalving);
  EXPECT_EQ(select_ompi(Coll::ReduceScatter, q(2, 200000)), Algo::Ring);
  EXPECT_EQ(select_ompi(Coll::ReduceScatter, q(5, 4)), Algo::Nonoverlapping);
  EXPECT_EQ(select_ompi(Coll::ReduceScatter, noncommutative(q(16, 100))), Algo::Nonoverlapping);
  EXPECT_EQ(select_ompi(Coll::ReduceScatterBlock, q(10, 2)), Algo::Nonoverlapping);
  EXPECT_EQ(select_ompi(Coll::ReduceScatterBlock, q(10, 100)), Algo::RecursiveHalving);
  EXPECT_EQ(select_ompi(Coll::ReduceScatterBlock, q(10, 1000000)), Algo::Nonoverlapping);
}

TEST(SelectMpich, Thresholds) {
  EXPECT_EQ(select_mpich(Coll::Bcast, q(4, 1000000)), Algo::Binomial);  // fewer than 8 ranks
  EXPECT_EQ(select_mpich(Coll::Bcast, q(16, 12287)), Algo::Binomial);
  EXPECT_EQ(select_mpich(Coll::Bcast, q(16, 12288)), Algo::ScatterAllgather);
  EXPECT_EQ(select_mpich(Coll::Bcast, q(16, 524288)), Algo::ScatterRingAllgather);
  EXPECT_EQ(select_mpich(Coll::Bcast, q(12, 20000)), Algo::ScatterRingAllgather);
  EXPECT_EQ(select_mpich(Coll::Allreduce, q(8, 2048)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_mpich(Coll::Allreduce, q(8, 2052)), Algo::Rabenseifner);
  EXPECT_EQ(select_mpich(Coll::Allreduce, noncommutative(q(8, 100000))), Algo::RecursiveDoubling);
  CollQuery few = q(64, 4096);
  few.count = 32;  // fewer elements than ranks (8-byte elements)
  EXPECT_EQ(select_mpich(Coll::Allreduce, few), Algo::RecursiveDoubling);
  EXPECT_EQ(select_mpich(Coll::Reduce, q(8, 2048)), Algo::Binomial);
  EXPECT_EQ(select_mpich(Coll::Reduce, q(8, 2052)), Algo::Rabenseifner);
  EXPECT_EQ(select_mpich(Coll::Allgather, total(q(8, 500), 4000)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_mpich(Coll::Allgather, total(q(12, 333), 4000)), Algo::Bruck);
  EXPECT_EQ(select_mpich(Coll::Allgather, total(q(12, 8333), 100000)), Algo::Ring);
  EXPECT_EQ(select_mpich(Coll::Allgatherv, total(q(8, 75000), 600000)), Algo::Ring);
  CollQuery in_place = q(8, 10);
  in_place.in_place = true;
  EXPECT_EQ(select_mpich(Coll::Alltoall, in_place), Algo::Pairwise);
  EXPECT_EQ(select_mpich(Coll::Alltoall, q(8, 256)), Algo::Bruck);
  EXPECT_EQ(select_mpich(Coll::Alltoall, q(4, 256)), Algo::Scattered);
  EXPECT_EQ(select_mpich(Coll::Alltoall, q(8, 32769)), Algo::Pairwise);
  EXPECT_EQ(select_mpich(Coll::Alltoallv, q(8, 0)), Algo::Scattered);
  EXPECT_EQ(select_mpich(Coll::ReduceScatter, total(q(8, 100), 100)), Algo::RecursiveHalving);
  EXPECT_EQ(select_mpich(Coll::ReduceScatter, total(q(8, 100), 600000)), Algo::Pairwise);
  EXPECT_EQ(select_mpich(Coll::ReduceScatter, noncommutative(q(8, 100))), Algo::Nonoverlapping);
  EXPECT_EQ(select_mpich(Coll::Barrier, q(8, 0)), Algo::Dissemination);
  EXPECT_EQ(select_mpich(Coll::Gather, q(8, 100)), Algo::Binomial);
  EXPECT_EQ(select_mpich(Coll::Scatter, q(8, 100)), Algo::Binomial);
  EXPECT_EQ(select_mpich(Coll::Gatherv, q(8, 100)), Algo::Linear);
  EXPECT_EQ(select_mpich(Coll::Scatterv, q(8, 100)), Algo::LinearNb);
  EXPECT_EQ(select_mpich(Coll::Scan, q(8, 100)), Algo::RecursiveDoubling);
  EXPECT_EQ(select_mpich(Coll::Exscan, q(8, 100)), Algo::RecursiveDoubling);
}

}  // namespace
}  // namespace simmpi::mpi
