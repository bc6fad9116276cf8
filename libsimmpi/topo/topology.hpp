// SPDX-License-Identifier: Apache-2.0
// Process topologies (MPI-3.1 chapter 7) attached to a communicator: Cartesian grids, graphs,
// and distributed graphs. Ranks are kept as given (reorder is allowed but never done), so a
// topology's rank i is the communicator's rank i. Cartesian ranks are row-major: the last
// dimension varies fastest.
#pragma once

#include <vector>

#include "libsimmpi/core/communicator.hpp"

namespace simmpi::mpi {

class Topology {
 public:
  struct Adjacency {  // one member's view of a distributed graph
    std::vector<int> sources, source_weights, destinations, dest_weights;
  };

  static Topology cart(std::vector<int> dims, std::vector<int> periods);
  static Topology graph(std::vector<int> index, std::vector<int> edges);
  // Each member fills its own entry of adjacency() when it gets the communicator.
  static Topology dist_graph(int size, bool weighted);

  int kind() const { return kind_; }  // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH

  // Cartesian.
  int ndims() const { return static_cast<int>(dims_.size()); }
  const std::vector<int>& dims() const { return dims_; }
  const std::vector<int>& periods() const { return periods_; }
  int cart_size() const;  // product of dims (1 for zero dimensions)
  std::vector<int> coords_of(int rank) const;
  // The rank at `coords`, wrapping periodic dimensions; -1 if out of a non-periodic one.
  int rank_at(std::vector<int> coords) const;
  // MPI_Cart_shift: the ranks `disp` steps before and after `rank` along `direction`.
  void shift(int rank, int direction, int disp, int* source, int* dest) const;

  // Graph.
  const std::vector<int>& index() const { return index_; }
  const std::vector<int>& edges() const { return edges_; }
  std::vector<int> graph_neighbors(int rank) const;

  // Distributed graph.
  bool weighted() const { return weighted_; }
  Adjacency& adjacency(int rank) { return adjacency_[static_cast<std::size_t>(rank)]; }
  const Adjacency& adjacency(int rank) const { return adjacency_[static_cast<std::size_t>(rank)]; }

  // The neighbors of `rank` for the neighborhood collectives, in MPI's order (MPI-3.1 7.6):
  // Cartesian, for each dimension the rank at -1 then at +1 (MPI_PROC_NULL off an edge);
  // graph, its neighbors for both; distributed graph, its sources and destinations.
  void neighbors(int rank, std::vector<int>* in, std::vector<int>* out) const;

 private:
  int kind_ = MPI_CART;
  std::vector<int> dims_, periods_;
  std::vector<int> index_, edges_;
  bool weighted_ = false;
  std::vector<Adjacency> adjacency_;
};

}  // namespace simmpi::mpi
