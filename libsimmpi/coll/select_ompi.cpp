// SPDX-License-Identifier: Apache-2.0
// Open MPI 4.1's default algorithm selection: the fixed decision rules of the "tuned" component
// (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, v4.1.x), whose thresholds were averaged from
// ompi-collectives-tuning runs on several clusters. Each table row covers communicators smaller
// than `below_ranks`; within it, each band covers messages smaller than `below` bytes. The rules
// pass no segment size and no fan-out, so Open MPI runs its pipelined algorithms unsegmented and
// its "chain" with one chain (coll_base_topo.c forces a fan-out of 0 to 1); selection.cpp does
// the same.
// The collectives "tuned" leaves to the "basic" component (gatherv, scatterv, scan, exscan) use
// basic's linear algorithms.
// Where an Open MPI algorithm has no file here, the closest one stands in (noted per table):
// "linear_sync" all-to-all is the linear one (identical without a request limit, the default);
// "two_proc" exchanges are the pairwise or ring exchange, identical for two ranks; the
// "butterfly" and "recursive_doubling" reduce-scatters run recursive halving, which for p a
// power of two moves the same data as the butterfly (Traff 2005).
#include <cstdint>
#include <limits>
#include <vector>

#include "libsimmpi/coll/selection.hpp"

namespace simmpi::mpi {
namespace {

constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();
constexpr int kAll = std::numeric_limits<int>::max();

struct Band {
  std::size_t below;
  Algo algo;
};
struct Row {
  int below_ranks;
  std::vector<Band> bands;
};
using Table = std::vector<Row>;

Algo lookup(const Table& t, int size, std::size_t bytes) {
  for (const Row& row : t) {
    if (size >= row.below_ranks) continue;
    for (const Band& b : row.bands)
      if (bytes < b.below) return b.algo;
  }
  return t.back().bands.back().algo;
}

// clang-format off: one table row per line reads like the source's if/else ladder.
using A = Algo;
constexpr A Lin = A::Linear, RD = A::RecursiveDoubling, Ring = A::Ring, Rab = A::Rabenseifner,
            NO = A::Nonoverlapping, SegRing = A::SegmentedRing, Pair = A::Pairwise,
            Bruck = A::Bruck, Diss = A::Dissemination, Tree = A::Tree, Chain = A::Chain,
            Pipe = A::Pipeline, SBT = A::SplitBinaryTree, BinT = A::BinaryTree, Binom = A::Binomial,
            Knom = A::Knomial, SAG = A::ScatterAllgather, IOB = A::InOrderBinaryTree,
            NE = A::NeighborExchange, RH = A::RecursiveHalving, LinNb = A::LinearNb,
            LinSync = A::LinearSync;

const Table& allreduce_noncommutative() {
  static const Table t = {
      {4, {{131072, RD}, {kAny, Lin}}},
      {8, {{kAny, RD}}},
      {16, {{1048576, RD}, {kAny, NO}}},
      {128, {{kAny, RD}}},
      {256, {{131072, NO}, {524288, RD}, {kAny, NO}}},
      {512, {{4096, NO}, {524288, RD}, {kAny, NO}}},
      {kAll, {{2048, NO}, {kAny, RD}}},
  };
  return t;
}

const Table& allreduce() {
  static const Table t = {
      {4,
       {{8, Ring},
        {4096, RD},
        {8192, Ring},
        {16384, RD},
        {65536, Ring},
        {262144, SegRing},
        {kAny, Rab}}},
      {8, {{16, Ring}, {8192, RD}, {kAny, Rab}}},
      {16, {{8192, RD}, {kAny, Rab}}},
      {32, {{64, SegRing}, {4096, RD}, {kAny, Rab}}},
      {64, {{128, SegRing}, {kAny, Rab}}},
      {128, {{262144, RD}, {kAny, Rab}}},
      {256, {{131072, NO}, {262144, RD}, {kAny, Rab}}},
      {512, {{4096, NO}, {kAny, Rab}}},
      {2048, {{2048, NO}, {16384, RD}, {kAny, Rab}}},
      {4096, {{2048, NO}, {4096, SegRing}, {16384, RD}, {kAny, Rab}}},
      {kAll, {{2048, NO}, {16384, SegRing}, {32768, RD}, {kAny, Rab}}},
  };
  return t;
}

// Bytes: one block (sendcount elements). "two_proc" is Pair, "linear_sync" Lin.
const Table& alltoall() {
  static const Table t = {
      {3, {{32768, Pair}, {262144, Lin}, {kAny, Pair}}},
      {8, {{524288, Lin}, {1048576, Pair}, {kAny, Lin}}},
      {16, {{kAny, Lin}}},
      {32, {{4, Lin}, {512, Bruck}, {kAny, Lin}}},
      {64, {{512, Bruck}, {kAny, Lin}}},
      {128, {{1024, Bruck}, {262144, Lin}, {kAny, Pair}}},
      {256, {{1024, Bruck}, {262144, Lin}, {kAny, Pair}}},
      {512, {{1024, Bruck}, {32768, Lin}, {kAny, Pair}}},
      {1024, {{512, Bruck}, {262144, Lin}, {kAny, Pair}}},
      {2048, {{512, Bruck}, {kAny, Lin}}},
      {4096, {{1024, Bruck}, {kAny, Lin}}},
      {kAll, {{2048, Bruck}, {kAny, Lin}}},
  };
  return t;
}

const Table& alltoallv() {
  static const Table t = {
      {4, {{kAny, Pair}}},  {64, {{kAny, Lin}}},    {128, {{kAny, Pair}}},
      {256, {{kAny, Lin}}}, {1024, {{kAny, Pair}}}, {kAll, {{kAny, Lin}}},
  };
  return t;
}

// "bruck" is the dissemination barrier.
const Table& barrier() {
  static const Table t = {
      {4, {{kAny, RD}}},     {8, {{kAny, Lin}}},     {64, {{kAny, RD}}},     {256, {{kAny, Diss}}},
      {512, {{kAny, Tree}}}, {1024, {{kAny, Diss}}}, {4096, {{kAny, Tree}}}, {kAll, {{kAny, Diss}}},
  };
  return t;
}

const Table& bcast() {
  static const Table t = {
      {4,
       {{32, Pipe},
        {256, BinT},
        {512, Pipe},
        {1024, Knom},
        {32768, Lin},
        {131072, BinT},
        {262144, Chain},
        {524288, Lin},
        {1048576, Binom},
        {kAny, BinT}}},
      {8, {{64, BinT}, {128, Binom}, {2048, BinT}, {8192, Binom}, {1048576, Lin}, {kAny, Chain}}},
      {16, {{8, Knom}, {64, BinT}, {4096, Knom}, {16384, BinT}, {32768, Binom}, {kAny, Lin}}},
      {32, {{4096, Knom}, {1048576, Binom}, {kAny, SAG}}},
      {64, {{2048, Binom}, {kAny, Knom}}},
      {128, {{kAny, Knom}}},
      {256, {{2, Binom}, {16384, BinT}, {32768, Lin}, {65536, BinT}, {kAny, Knom}}},
      {1024, {{16384, Knom}, {32768, SBT}, {kAny, Knom}}},
      {2048, {{524288, Knom}, {kAny, SAG}}},
      {4096, {{262144, Knom}, {kAny, SAG}}},
      {kAll, {{8192, Knom}, {16384, BinT}, {262144, Knom}, {kAny, SAG}}},
  };
  return t;
}

const Table& reduce_noncommutative() {
  static const Table t = {
      {4, {{8, IOB}, {kAny, Lin}}},
      {8, {{kAny, Lin}}},
      {16, {{1024, IOB}, {8192, Lin}, {16384, IOB}, {262144, Lin}, {kAny, IOB}}},
      {128, {{kAny, IOB}}},
      {256, {{512, IOB}, {1024, Lin}, {kAny, IOB}}},
      {kAll, {{kAny, IOB}}},
  };
  return t;
}

const Table& reduce() {
  static const Table t = {
      {4,
       {{8, Rab},
        {16, BinT},
        {32, Pipe},
        {262144, Lin},
        {524288, Pipe},
        {1048576, Chain},
        {kAny, Pipe}}},
      {8,
       {{4096, BinT},
        {65536, Chain},
        {262144, Binom},
        {524288, Lin},
        {1048576, Binom},
        {kAny, Lin}}},
      {16, {{8192, BinT}, {kAny, Binom}}},
      {32, {{4096, BinT}, {kAny, Binom}}},
      {256, {{kAny, Binom}}},
      {512, {{8192, Binom}, {16384, IOB}, {kAny, Binom}}},
      {2048, {{kAny, Binom}}},
      {4096, {{512, Binom}, {1024, IOB}, {8192, Binom}, {16384, IOB}, {kAny, Binom}}},
      {kAll,
       {{16, Binom},
        {32, IOB},
        {1024, Binom},
        {2048, IOB},
        {8192, Binom},
        {16384, IOB},
        {kAny, Binom}}},
  };
  return t;
}

// Bytes: the whole vector. "butterfly" is RH.
const Table& reduce_scatter() {
  static const Table t = {
      {4, {{65536, Ring}, {131072, RH}, {kAny, Ring}}},
      {8, {{8, NO}, {262144, RH}, {kAny, Ring}}},
      {32, {{262144, RH}, {kAny, Ring}}},
      {64, {{64, NO}, {524288, RH}, {kAny, Ring}}},
      {128, {{256, NO}, {kAny, RH}}},
      {256, {{256, NO}, {kAny, RH}}},
      {512, {{256, NO}, {kAny, RH}}},
      {1024, {{512, NO}, {kAny, RH}}},
      {2048, {{512, NO}, {kAny, RH}}},
      {4096, {{512, NO}, {kAny, RH}}},
      {kAll, {{1024, NO}, {kAny, RH}}},
  };
  return t;
}

// Bytes: one block. "butterfly" and "recursive_doubling" are RH; "basic_linear" is NO.
const Table& reduce_scatter_block() {
  static const Table t = {
      {4, {{131072, RH}, {kAny, NO}}},
      {8, {{1048576, RH}, {kAny, NO}}},
      {16, {{4, NO}, {524288, RH}, {4194304, NO}, {kAny, RH}}},
      {32, {{32, NO}, {524288, RH}, {2097152, NO}, {kAny, RH}}},
      {kAll, {{4, RH}, {16, NO}, {65536, RH}, {262144, NO}, {kAny, RH}}},
  };
  return t;
}

// Bytes: one rank's block. "two_proc" is the ring.
const Table& allgather() {
  static const Table t = {
      {3, {{kAny, Ring}}},
      {32, {{kAny, RD}}},
      {64, {{1024, RD}, {65536, NE}, {kAny, Ring}}},
      {128, {{512, RD}, {65536, NE}, {kAny, Ring}}},
      {256, {{512, RD}, {131072, NE}, {524288, Ring}, {1048576, NE}, {kAny, Ring}}},
      {512,
       {{32, RD},
        {128, Bruck},
        {1024, RD},
        {131072, NE},
        {524288, Ring},
        {1048576, NE},
        {kAny, Ring}}},
      {1024, {{64, RD}, {256, Bruck}, {2048, RD}, {kAny, NE}}},
      {2048,
       {{4, RD},
        {8, Bruck},
        {16, RD},
        {32, Bruck},
        {256, RD},
        {512, Bruck},
        {4096, RD},
        {kAny, NE}}},
      {4096, {{32, Bruck}, {128, RD}, {512, Bruck}, {4096, RD}, {kAny, NE}}},
      {kAll, {{2, RD}, {8, Bruck}, {16, RD}, {512, Bruck}, {4096, RD}, {kAny, NE}}},
  };
  return t;
}

// Bytes: the average block. "default" (gatherv + bcast) is Lin; "two_proc" is the ring.
const Table& allgatherv() {
  static const Table t = {
      {3, {{kAny, Ring}}},
      {8, {{256, Lin}, {4096, NE}, {8192, Ring}, {16384, NE}, {262144, Bruck}, {kAny, NE}}},
      {16, {{1024, Lin}, {kAny, Bruck}}},
      {32, {{128, Lin}, {262144, Bruck}, {kAny, Ring}}},
      {64, {{256, Lin}, {8192, Bruck}, {kAny, Ring}}},
      {128, {{256, Lin}, {4096, Bruck}, {kAny, Ring}}},
      {256, {{1024, Bruck}, {65536, NE}, {kAny, Ring}}},
      {512, {{1024, Bruck}, {kAny, Ring}}},
      {1024, {{512, Bruck}, {1024, Lin}, {4096, Bruck}, {1048576, NE}, {kAny, Ring}}},
      {kAll, {{4096, Bruck}, {kAny, NE}}},
  };
  return t;
}

// Bytes: one block.
const Table& gather() {
  static const Table t = {
      {4, {{2, LinSync}, {4, Lin}, {32768, Binom}, {65536, Lin}, {131072, Binom}, {kAny, LinSync}}},
      {8, {{1024, Binom}, {8192, Lin}, {32768, Binom}, {262144, Lin}, {kAny, LinSync}}},
      {256, {{kAny, Binom}}},
      {512, {{2048, Binom}, {8192, Lin}, {kAny, Binom}}},
      {kAll, {{kAny, Binom}}},
  };
  return t;
}

// Bytes: one block. Lin is basic_linear (blocking sends), LinNb linear_nb.
const Table& scatter() {
  static const Table t = {
      {4, {{2, LinNb}, {131072, Lin}, {262144, LinNb}, {kAny, Lin}}},
      {8, {{2048, Binom}, {4096, Lin}, {8192, Binom}, {32768, Lin}, {1048576, LinNb}, {kAny, Lin}}},
      {16, {{16384, Binom}, {1048576, LinNb}, {kAny, Lin}}},
      {32, {{16384, Binom}, {32768, Lin}, {kAny, LinNb}}},
      {64, {{512, Binom}, {8192, LinNb}, {16384, Binom}, {kAny, LinNb}}},
      {kAll, {{512, Binom}, {kAny, LinNb}}},
  };
  return t;
}

// clang-format on

}  // namespace

Algo select_ompi(Coll coll, const CollQuery& q) {
  int p = q.size;
  std::size_t s = q.bytes;
  switch (coll) {
    case Coll::Barrier:
      return lookup(barrier(), p, 0);
    case Coll::Bcast:
      return lookup(bcast(), p, s);
    case Coll::Reduce:
      return lookup(q.commutative ? reduce() : reduce_noncommutative(), p, s);
    case Coll::Allreduce:
      return lookup(q.commutative ? allreduce() : allreduce_noncommutative(), p, s);
    case Coll::Allgather:
      return lookup(allgather(), p, s);
    case Coll::Allgatherv:
      return lookup(allgatherv(), p, s);
    case Coll::Alltoall:
      return lookup(alltoall(), p, s);
    case Coll::Alltoallv:
      return lookup(alltoallv(), p, s);
    case Coll::Gather:
      return lookup(gather(), p, s);
    case Coll::Scatter:
      return lookup(scatter(), p, s);
    case Coll::ReduceScatter:
      return q.commutative ? lookup(reduce_scatter(), p, s) : NO;
    case Coll::ReduceScatterBlock:
      return q.commutative ? lookup(reduce_scatter_block(), p, s) : NO;
    case Coll::Gatherv:
    case Coll::Scatterv:
    case Coll::Scan:
    case Coll::Exscan:
    case Coll::Count:
      break;
  }
  return Lin;
}

}  // namespace simmpi::mpi
