// SPDX-License-Identifier: Apache-2.0
// Rank and coordinate arithmetic of Cartesian topologies, graph neighbor lists.
#include "libsimmpi/topo/topology.hpp"

namespace simmpi::mpi {

Topology Topology::cart(std::vector<int> dims, std::vector<int> periods) {
  Topology t;
  t.kind_ = MPI_CART;
  t.dims_ = std::move(dims);
  t.periods_ = std::move(periods);
  return t;
}

Topology Topology::graph(std::vector<int> index, std::vector<int> edges) {
  Topology t;
  t.kind_ = MPI_GRAPH;
  t.index_ = std::move(index);
  t.edges_ = std::move(edges);
  return t;
}

Topology Topology::dist_graph(int size, bool weighted) {
  Topology t;
  t.kind_ = MPI_DIST_GRAPH;
  t.weighted_ = weighted;
  t.adjacency_.resize(static_cast<std::size_t>(size));
  return t;
}

int Topology::cart_size() const {
  int n = 1;
  for (int d : dims_) n *= d;
  return n;
}

std::vector<int> Topology::coords_of(int rank) const {
  std::vector<int> c(dims_.size());
  for (std::size_t i = dims_.size(); i-- > 0;) {
    c[i] = rank % dims_[i];
    rank /= dims_[i];
  }
  return c;
}

int Topology::rank_at(std::vector<int> coords) const {
  int rank = 0;
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    int c = coords[i];
    if (periods_[i]) c = ((c % dims_[i]) + dims_[i]) % dims_[i];
    if (c < 0 || c >= dims_[i]) return -1;
    rank = rank * dims_[i] + c;
  }
  return rank;
}

void Topology::shift(int rank, int direction, int disp, int* source, int* dest) const {
  std::vector<int> c = coords_of(rank);
  auto d = static_cast<std::size_t>(direction);
  int here = c[d];
  c[d] = here + disp;
  int r = rank_at(c);
  *dest = r < 0 ? MPI_PROC_NULL : r;
  c[d] = here - disp;
  r = rank_at(c);
  *source = r < 0 ? MPI_PROC_NULL : r;
}

std::vector<int> Topology::graph_neighbors(int rank) const {
  int begin = rank == 0 ? 0 : index_[static_cast<std::size_t>(rank - 1)];
  int end = index_[static_cast<std::size_t>(rank)];
  return std::vector<int>(edges_.begin() + begin, edges_.begin() + end);
}

void Topology::neighbors(int rank, std::vector<int>* in, std::vector<int>* out) const {
  in->clear();
  if (kind_ == MPI_CART) {
    for (int d = 0; d < ndims(); ++d) {
      int source, dest;
      shift(rank, d, 1, &source, &dest);
      in->push_back(source);
      in->push_back(dest);
    }
    *out = *in;
  } else if (kind_ == MPI_GRAPH) {
    *in = graph_neighbors(rank);
    *out = *in;
  } else {
    *in = adjacency(rank).sources;
    *out = adjacency(rank).destinations;
  }
}

}  // namespace simmpi::mpi
