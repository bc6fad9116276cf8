// SPDX-License-Identifier: Apache-2.0
// MPICH's default algorithm selection: the MPIR_<Collective>_intra_auto functions of MPICH 3.3
// (src/mpi/coll/<collective>/<collective>.c) with their CVARs at their default values (the
// SMP-aware variants, off for one rank per node, are not modelled). Thresholds, in bytes:
//   MPIR_CVAR_BCAST_SHORT_MSG_SIZE 12288, MPIR_CVAR_BCAST_LONG_MSG_SIZE 524288,
//   MPIR_CVAR_BCAST_MIN_PROCS 8, MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE 2048,
//   MPIR_CVAR_REDUCE_SHORT_MSG_SIZE 2048, MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE 81920,
//   MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE 524288, MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE 256,
//   MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE 32768, MPIR_CVAR_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE
//   524288.
// MPICH's non-commutative reduce-scatter algorithms (recursive doubling, and its pairwise variant
// for powers of two) have no file here: such calls reduce to rank 0 and scatter (Nonoverlapping),
// which combines in rank order too.
#include "libsimmpi/coll/selection.hpp"

namespace simmpi::mpi {
namespace {

constexpr std::size_t kBcastShort = 12288, kBcastLong = 524288;
constexpr int kBcastMinProcs = 8;
constexpr std::size_t kAllreduceShort = 2048, kReduceShort = 2048;
constexpr std::size_t kAllgatherShort = 81920, kAllgatherLong = 524288;
constexpr std::size_t kAlltoallShort = 256, kAlltoallMedium = 32768;
constexpr std::size_t kReduceScatterLong = 524288;

bool is_pof2(int n) {
  return (n & (n - 1)) == 0;
}
int pof2_floor(int n) {
  int q = 1;
  while (q * 2 <= n) q *= 2;
  return q;
}

Algo bcast(const CollQuery& q) {
  if (q.bytes < kBcastShort || q.size < kBcastMinProcs) return Algo::Binomial;
  if (q.bytes < kBcastLong && is_pof2(q.size)) return Algo::ScatterAllgather;
  return Algo::ScatterRingAllgather;
}

// MPICH measures the whole vector gathered.
Algo allgather(const CollQuery& q) {
  if (q.total_bytes < kAllgatherLong && is_pof2(q.size)) return Algo::RecursiveDoubling;
  return q.total_bytes < kAllgatherShort ? Algo::Bruck : Algo::Ring;
}

Algo alltoall(const CollQuery& q) {
  if (q.in_place) return Algo::Pairwise;
  if (q.bytes <= kAlltoallShort && q.size >= 8) return Algo::Bruck;
  return q.bytes <= kAlltoallMedium ? Algo::Scattered : Algo::Pairwise;
}

Algo reduce_scatter(const CollQuery& q) {
  if (!q.commutative) return Algo::Nonoverlapping;
  return q.total_bytes < kReduceScatterLong ? Algo::RecursiveHalving : Algo::Pairwise;
}

}  // namespace

Algo select_mpich(Coll coll, const CollQuery& q) {
  switch (coll) {
    case Coll::Barrier:
      return Algo::Dissemination;
    case Coll::Bcast:
      return bcast(q);
    case Coll::Reduce:
      return q.bytes > kReduceShort && q.builtin_op && q.count >= pof2_floor(q.size)
                 ? Algo::Rabenseifner
                 : Algo::Binomial;
    case Coll::Allreduce:
      return q.bytes <= kAllreduceShort || !q.builtin_op || q.count < pof2_floor(q.size)
                 ? Algo::RecursiveDoubling
                 : Algo::Rabenseifner;
    case Coll::Allgather:
    case Coll::Allgatherv:
      return allgather(q);
    case Coll::Alltoall:
      return alltoall(q);
    case Coll::Alltoallv:
      return q.in_place ? Algo::Pairwise : Algo::Scattered;
    case Coll::Gather:
    case Coll::Scatter:
      return Algo::Binomial;
    case Coll::Gatherv:
      return Algo::Linear;
    case Coll::Scatterv:
      return Algo::LinearNb;
    case Coll::ReduceScatter:
    case Coll::ReduceScatterBlock:
      return reduce_scatter(q);
    case Coll::Scan:
    case Coll::Exscan:
      return Algo::RecursiveDoubling;
    case Coll::Count:
      break;
  }
  return Algo::Linear;
}

}  // namespace simmpi::mpi
