// SPDX-License-Identifier: Apache-2.0
// From a collective call to its algorithm. Fallbacks: reductions that need a commutative
// operation (ring, halving, pairwise, and the trees other than the in-order one) give way to one
// that keeps rank order (recursive doubling, the in-order binary tree, or reduce + scatter);
// Rabenseifner's algorithms with a non-commutative operation or fewer elements than 2^floor(log2
// p) fall back to the linear ones in Open MPI (coll_base_allreduce.c, coll_base_reduce.c) and are
// never chosen then by MPICH; Open MPI's scatter-allgather broadcast with fewer elements than
// ranks falls back to its linear broadcast. Each fallback depends only on arguments all ranks
// share, so every rank runs the same algorithm.
// The algorithms made of two others cost their sum, the second starting when the first ends at
// the rank it starts from (notation of algorithms.hpp): the "linear" allreduce (linear reduce
// and linear broadcast from rank 0), eager, T = o_s + L + (p - 1)(w + o_r) + h + (p - 2) g; the
// "nonoverlapping" allreduce with the binomial reduce and broadcast, p = 2^k, T = lg h(S) +
// T_bcast(S) (bcast_tree.cpp: lg h(S) when w(S) <= o_s); the
// "linear" allgather (gather to rank 0, then the selected broadcast of all p b bytes), eager,
// T = o_s + L + (p - 1) w(b) + o_r + T_bcast(p b); the "nonoverlapping" reduce-scatter (reduce of
// all S = p b bytes to rank 0, then the selected scatter(v)), with the binomial reduce and the
// linear_nb scatter, p = 2^k, T = lg h(S) + h(b) + (p - 2) g(b).
#include "libsimmpi/coll/dispatch.hpp"

#include <algorithm>
#include <numeric>

#include "libsimmpi/coll/intercomm_algorithms.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

CollQuery query(CollContext& c, std::size_t bytes) {
  CollQuery q;
  q.size = c.size();
  q.bytes = q.total_bytes = bytes;
  return q;
}

CollQuery reduction_query(CollContext& c, int count, const Reduction& red) {
  CollQuery q = query(c, red.bytes(count));
  q.count = count;
  q.commutative = red.commutative;
  q.builtin_op = !is_user_op(red.op);
  return q;
}

int pof2_floor(int n) {
  int q = 1;
  while (q * 2 <= n) q *= 2;
  return q;
}

// Segments hold whole elements.
std::size_t segment(const CollPlan& p, std::size_t elem) {
  if (!p.segment_bytes || !elem) return 0;
  return std::max(elem, p.segment_bytes / elem * elem);
}

}  // namespace

void run_barrier(CollContext& c) {
  if (c.comm().is_inter()) return inter_barrier(c);
  if (c.size() == 1) return;
  switch (choose(c.world(), Coll::Barrier, query(c, 0)).algo) {
    case Algo::RecursiveDoubling:
      return barrier_recursive_doubling(c);
    case Algo::Linear:
      return barrier_linear(c);
    case Algo::Tree:
      return barrier_tree(c);
    default:
      return barrier_dissemination(c);
  }
}

void run_bcast(CollContext& c, void* buf, int count, std::size_t elem, int root) {
  if (c.comm().is_inter()) return inter_bcast(c, buf, count, elem, root);
  std::size_t bytes = elem * static_cast<std::size_t>(count);
  if (c.size() == 1 || bytes == 0) return;
  CollPlan p = choose(c.world(), Coll::Bcast, query(c, bytes));
  std::size_t seg = segment(p, elem);
  switch (p.algo) {
    case Algo::Linear:
      return bcast_linear(c, buf, bytes, root);
    case Algo::Chain:
      return bcast_tree(c, buf, bytes, root, {TreeKind::Chain, p.fanout}, seg);
    case Algo::Pipeline:
      return bcast_tree(c, buf, bytes, root, {TreeKind::Chain, 1}, seg);
    case Algo::SplitBinaryTree:
      return bcast_split_binary_tree(c, buf, bytes, root, seg);
    case Algo::BinaryTree:
      return bcast_tree(c, buf, bytes, root, {TreeKind::Kary, 2}, seg);
    case Algo::Knomial:
      return bcast_tree(c, buf, bytes, root, {TreeKind::Knomial, p.radix}, seg);
    case Algo::ScatterAllgather:
    case Algo::ScatterRingAllgather:
      if (count < c.size()) return bcast_linear(c, buf, bytes, root);  // as Open MPI does
      if (p.algo == Algo::ScatterAllgather) return bcast_scatter_allgather(c, buf, bytes, root);
      return bcast_scatter_ring_allgather(c, buf, bytes, root);
    default:
      return bcast_tree(c, buf, bytes, root, {TreeKind::Binomial, 2}, 0);
  }
}

void run_reduce(CollContext& c, const void* sendbuf, void* recvbuf, int count, const Reduction& red,
                int root) {
  if (c.comm().is_inter()) return inter_reduce(c, sendbuf, recvbuf, count, red, root);
  CollPlan p = choose(c.world(), Coll::Reduce, reduction_query(c, count, red));
  int seg =
      static_cast<int>(segment(p, red.elem_bytes()) / std::max<std::size_t>(1, red.elem_bytes()));
  bool ompi = p.library == Library::OpenMpi;
  bool keeps_order = p.algo == Algo::Linear || p.algo == Algo::InOrderBinaryTree ||
                     p.algo == Algo::Rabenseifner || (p.algo == Algo::Binomial && !ompi);
  if (!red.commutative && !keeps_order) p.algo = ompi ? Algo::InOrderBinaryTree : Algo::Binomial;
  if (p.algo == Algo::Rabenseifner && (count < pof2_floor(c.size()) || !red.commutative))
    p.algo = ompi ? Algo::Linear : Algo::Binomial;
  switch (p.algo) {
    case Algo::Linear:
      return reduce_linear(c, sendbuf, recvbuf, count, red, root);
    case Algo::Chain:
      return reduce_tree(c, sendbuf, recvbuf, count, red, root, {TreeKind::Chain, p.fanout}, seg);
    case Algo::Pipeline:
      return reduce_tree(c, sendbuf, recvbuf, count, red, root, {TreeKind::Chain, 1}, seg);
    case Algo::BinaryTree:
      return reduce_tree(c, sendbuf, recvbuf, count, red, root, {TreeKind::Kary, 2}, seg);
    case Algo::InOrderBinaryTree:
      return reduce_tree(c, sendbuf, recvbuf, count, red, root, {TreeKind::InOrderBinary, 2}, seg);
    case Algo::Rabenseifner:
      return reduce_rabenseifner(c, sendbuf, recvbuf, count, red, root);
    default:
      if (ompi)
        return reduce_tree(c, sendbuf, recvbuf, count, red, root, {TreeKind::InOrderBinomial, 2},
                           seg);
      return reduce_binomial(c, sendbuf, recvbuf, count, red, root);
  }
}

void run_allreduce(CollContext& c, void* buf, int count, const Reduction& red) {
  if (c.comm().is_inter()) return inter_allreduce(c, buf, count, red);
  if (c.size() == 1 || count == 0) return;
  CollPlan p = choose(c.world(), Coll::Allreduce, reduction_query(c, count, red));
  bool ompi = p.library == Library::OpenMpi;
  if ((p.algo == Algo::Ring || p.algo == Algo::SegmentedRing) && !red.commutative)
    p.algo = Algo::RecursiveDoubling;
  if (p.algo == Algo::Rabenseifner && (count < pof2_floor(c.size()) || !red.commutative))
    p.algo = ompi ? Algo::Linear : Algo::RecursiveDoubling;
  switch (p.algo) {
    case Algo::Linear:
      reduce_linear(c, buf, buf, count, red, 0);
      return bcast_linear(c, buf, red.bytes(count), 0);
    case Algo::Nonoverlapping:
      run_reduce(c, buf, buf, count, red, 0);
      return run_bcast(c, buf, count, red.elem_bytes(), 0);
    case Algo::Ring:
      return allreduce_ring(c, buf, count, red, 0);
    case Algo::SegmentedRing:
      return allreduce_ring(c, buf, count, red,
                            static_cast<int>(segment(p, red.elem_bytes()) / red.elem_bytes()));
    case Algo::Rabenseifner:
      return allreduce_rabenseifner(c, buf, count, red);
    default:
      return allreduce_recursive_doubling(c, buf, count, red);
  }
}

void run_allgatherv(CollContext& c, Coll which, char* packed, const Sizes& counts,
                    const Sizes& offsets) {
  SIMMPI_ASSERT(!c.comm().is_inter(),
                "allgathers on an intercommunicator (%s) run inter_allgatherv: their own block "
                "is not part of recvbuf",
                c.comm().name().c_str());
  std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  if (c.size() == 1 || total == 0) return;
  CollQuery q = query(c, total / static_cast<std::size_t>(c.size()));
  q.total_bytes = total;
  switch (choose(c.world(), which, q).algo) {
    case Algo::Linear: {
      gatherv_linear(c, packed + offsets[static_cast<std::size_t>(c.rank())],
                     counts[static_cast<std::size_t>(c.rank())], packed, counts, offsets, 0);
      return run_bcast(c, packed, static_cast<int>(total), 1, 0);
    }
    case Algo::RecursiveDoubling:
      return allgatherv_recursive_doubling(c, packed, counts, offsets);
    case Algo::Ring:
      return allgatherv_ring(c, packed, counts, offsets);
    case Algo::NeighborExchange:
      return allgatherv_neighbor_exchange(c, packed, counts, offsets);
    default:
      return allgatherv_bruck(c, packed, counts, offsets);
  }
}

void run_alltoallv(CollContext& c, Coll which, bool in_place, const void* sendbuf,
                   const Sizes& scounts, const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                   const Sizes& rdispls) {
  if (c.comm().is_inter())
    return inter_alltoallv(c, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls);
  CollQuery q = query(c, rcounts.empty() ? 0 : rcounts[0]);
  q.in_place = in_place;
  CollPlan p = choose(c.world(), which, q);
  if (p.algo == Algo::Bruck && which != Coll::Alltoall) p.algo = Algo::Pairwise;
  switch (p.algo) {
    case Algo::Linear:
      return alltoallv_linear(c, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls, 0);
    case Algo::Scattered:
      return alltoallv_linear(c, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls, p.batch);
    case Algo::Bruck:
      return alltoall_bruck(c, sendbuf, sdispls, recvbuf, rdispls, rcounts[0]);
    default:
      return alltoallv_pairwise(c, sendbuf, scounts, sdispls, recvbuf, rcounts, rdispls);
  }
}

void run_gather(CollContext& c, Coll which, const void* sendbuf, std::size_t sendbytes,
                void* recvbuf, const Sizes& counts, const Sizes& displs, int root) {
  if (c.comm().is_inter())
    return inter_gather(c, which, sendbuf, sendbytes, recvbuf, counts, displs, root);
  bool at_root = c.rank() == root;
  std::size_t block = at_root ? counts[0] : sendbytes;  // MPI_Gather: equal on all ranks
  CollPlan p = choose(c.world(), which, query(c, block));
  if (which == Coll::Gatherv) p.algo = Algo::Linear;
  switch (p.algo) {
    case Algo::Binomial:
      return gather_binomial(c, sendbuf, recvbuf, displs, block, root);
    case Algo::LinearSync:
      return gather_linear_sync(c, sendbuf, sendbytes, recvbuf, counts, displs, root, 0);
    default:
      return gatherv_linear(c, sendbuf, sendbytes, recvbuf, counts, displs, root);
  }
}

void run_scatter(CollContext& c, Coll which, const void* sendbuf, const Sizes& counts,
                 const Sizes& displs, void* recvbuf, std::size_t recvbytes, int root) {
  if (c.comm().is_inter())
    return inter_scatter(c, which, sendbuf, counts, displs, recvbuf, recvbytes, root);
  bool at_root = c.rank() == root;
  std::size_t block = at_root ? counts[0] : recvbytes;  // MPI_Scatter: equal on all ranks
  CollPlan p = choose(c.world(), which, query(c, block));
  if (which == Coll::Scatterv && p.algo == Algo::Binomial) p.algo = Algo::LinearNb;
  switch (p.algo) {
    case Algo::Binomial:
      return scatter_binomial(c, sendbuf, displs, recvbuf, block, root);
    case Algo::Linear:
      return scatterv_linear(c, sendbuf, counts, displs, recvbuf, recvbytes, root, true);
    default:
      return scatterv_linear(c, sendbuf, counts, displs, recvbuf, recvbytes, root, false);
  }
}

void run_reduce_scatter(CollContext& c, Coll which, void* input, void* recvbuf,
                        const std::vector<int>& counts, const Reduction& red) {
  if (c.comm().is_inter()) return inter_reduce_scatter(c, which, input, recvbuf, counts, red);
  int n = c.size(), total = std::accumulate(counts.begin(), counts.end(), 0);
  CollQuery q = reduction_query(c, total, red);
  if (which == Coll::ReduceScatterBlock) q.bytes = red.bytes(counts[0]);
  CollPlan p = choose(c.world(), which, q);
  if (!red.commutative) p.algo = Algo::Nonoverlapping;
  switch (p.algo) {
    case Algo::RecursiveHalving:
      return reduce_scatter_recursive_halving(c, input, recvbuf, counts, red);
    case Algo::Pairwise:
      return reduce_scatter_pairwise(c, input, recvbuf, counts, red);
    case Algo::Ring:
      if (n > 1) return reduce_scatter_ring(c, input, recvbuf, counts, red);
      break;
    default:
      break;
  }
  // Nonoverlapping: reduce everything to rank 0, which scatters the blocks (with the scatter's
  // rule for equal blocks, the scatterv's otherwise, as Open MPI does).
  std::vector<char> all(red.bytes(total));
  run_reduce(c, input, all.data(), total, red, 0);
  Sizes bytes(static_cast<std::size_t>(n)), displs(static_cast<std::size_t>(n));
  for (std::size_t i = 0, at = 0; i < bytes.size(); at += bytes[i], ++i)
    bytes[i] = red.bytes(counts[i]), displs[i] = at;
  run_scatter(c, which == Coll::ReduceScatterBlock ? Coll::Scatter : Coll::Scatterv, all.data(),
              bytes, displs, recvbuf, bytes[static_cast<std::size_t>(c.rank())], 0);
}

void run_scan(CollContext& c, Coll which, void* buf, int count, const Reduction& red) {
  if (c.size() == 1 || count == 0) return;
  bool exclusive = which == Coll::Exscan;
  if (choose(c.world(), which, reduction_query(c, count, red)).algo == Algo::Linear)
    return scan_linear(c, buf, count, red, exclusive);
  scan_recursive_doubling(c, buf, count, red, exclusive);
}

}  // namespace simmpi::mpi
