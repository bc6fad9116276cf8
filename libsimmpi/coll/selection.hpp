// SPDX-License-Identifier: Apache-2.0
// Which algorithm a collective call runs. Two libraries' default rules are reproduced, chosen by
// mpi.coll.selection: Open MPI 4.1's "tuned" fixed decision rules (select_ompi.cpp) and MPICH
// 3.3's "auto" rules with their default CVARs (select_mpich.cpp); mpi.coll.<collective> forces
// one algorithm. Where the two libraries implement an algorithm of the same name differently
// (the binomial reduce), the selected library's version runs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace simmpi::mpi {

class World;

enum class Library : std::uint8_t { OpenMpi, Mpich };

enum class Coll : std::uint8_t {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Allgather,
  Allgatherv,
  Alltoall,
  Alltoallv,
  Gather,
  Gatherv,
  Scatter,
  Scatterv,
  ReduceScatter,
  ReduceScatterBlock,
  Scan,
  Exscan,
  Count,
};

// Every algorithm of every collective, by the name used in mpi.coll.<collective> keys.
enum class Algo : std::uint8_t {
  Auto,
  Linear,
  LinearNb,
  LinearSync,
  Dissemination,
  RecursiveDoubling,
  Tree,
  Chain,
  Pipeline,
  SplitBinaryTree,
  BinaryTree,
  Binomial,
  Knomial,
  InOrderBinaryTree,
  ScatterAllgather,
  ScatterRingAllgather,
  Rabenseifner,
  Ring,
  SegmentedRing,
  Nonoverlapping,
  Bruck,
  NeighborExchange,
  Pairwise,
  Scattered,
  RecursiveHalving,
};

// What the rules look at.
struct CollQuery {
  int size = 1;  // ranks in the communicator
  // The vector of a broadcast, reduction or scan; one rank's block of an allgather, all-to-all,
  // gather, scatter or reduce_scatter_block (the average block of an allgatherv); the whole
  // vector of a reduce_scatter.
  std::size_t bytes = 0;
  std::size_t total_bytes = 0;  // all blocks of an allgather(v) or reduce-scatter
  int count = 0;                // elements of the reduction vector
  bool commutative = true;
  bool builtin_op = true;  // a predefined operation (MPICH tests this, not commutativity)
  bool in_place = false;
};

struct CollPlan {
  Algo algo;
  std::size_t segment_bytes = 0;  // segmented algorithms; 0: unsegmented
  int fanout = 1;                 // chains of the chain broadcast/reduction
  int radix = 4;                  // k-nomial tree
  int batch = 0;                  // MPICH's scattered all-to-all: peers per batch
  Library library = Library::OpenMpi;
};

// The plan for one call: the forced algorithm if mpi.coll.<collective> names one, else the
// selected library's rule. Reads the configuration of `w` (cached after the first call).
CollPlan choose(World& w, Coll coll, const CollQuery& q);

// The library rules themselves (pure functions of the query).
Algo select_ompi(Coll coll, const CollQuery& q);
Algo select_mpich(Coll coll, const CollQuery& q);

const char* algo_name(Algo a);

}  // namespace simmpi::mpi
