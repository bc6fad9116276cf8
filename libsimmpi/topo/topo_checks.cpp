// SPDX-License-Identifier: Apache-2.0
// Lookups and argument checks shared by the topology calls.
#include "libsimmpi/topo/topo_checks.hpp"

#include <string>

namespace simmpi::mpi {
namespace {

const char* kind_name(int kind) {
  return kind == MPI_CART ? "a Cartesian" : kind == MPI_GRAPH ? "a graph" : "a distributed graph";
}

}  // namespace

Topology* find_topology(ApiCall& call, MPI_Comm h, int kind, Communicator** c, int* err) {
  *c = call.comm(h);
  if (!*c) {
    *err = MPI_ERR_COMM;
    return nullptr;
  }
  Topology* t = (*c)->topology().get();
  if (t && (kind == 0 || t->kind() == kind)) return t;
  std::string what = t ? std::string("not ") + kind_name(kind) : std::string("no process");
  *err = call.fail(h, MPI_ERR_TOPOLOGY, "%s has %s topology", (*c)->name().c_str(), what.c_str());
  return nullptr;
}

Group group_prefix(const Communicator& c, int n) {
  if (!c.members()) return Group{n, nullptr};  // the identity stays one
  return make_group(std::vector<int>(c.members()->begin(), c.members()->begin() + n));
}

int check_cart_shape(ApiCall& call, MPI_Comm comm, int ndims, const int* dims, const int* periods,
                     int size, int* nodes) {
  if (ndims < 0) return call.fail(comm, MPI_ERR_DIMS, "ndims=%d is negative", ndims);
  if (ndims > 0 && (!dims || !periods))
    return call.fail(comm, MPI_ERR_ARG, "dims or periods is NULL");
  long long n = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0)
      return call.fail(comm, MPI_ERR_DIMS, "dims[%d]=%d is not positive", i, dims[i]);
    n *= dims[i];
    if (n > size)
      return call.fail(comm, MPI_ERR_TOPOLOGY,
                       "the grid of dims[0..%d] has %lld or more "
                       "processes, more than the %d of the communicator",
                       i, n, size);
  }
  *nodes = static_cast<int>(n);
  return MPI_SUCCESS;
}

int check_graph(ApiCall& call, MPI_Comm comm, int nnodes, const int* index, const int* edges,
                int size) {
  if (nnodes < 0 || nnodes > size)
    return call.fail(comm, MPI_ERR_ARG, "nnodes=%d not in [0,%d]", nnodes, size);
  if (nnodes > 0 && !index) return call.fail(comm, MPI_ERR_ARG, "index is NULL");
  for (int i = 0; i < nnodes; ++i)
    if (index[i] < (i ? index[i - 1] : 0))
      return call.fail(comm, MPI_ERR_ARG,
                       "index[%d]=%d is smaller than the entry before it "
                       "(index holds running totals of neighbor counts)",
                       i, index[i]);
  int nedges = nnodes ? index[nnodes - 1] : 0;
  if (nedges > 0 && !edges) return call.fail(comm, MPI_ERR_ARG, "edges is NULL");
  for (int i = 0; i < nedges; ++i)
    if (edges[i] < 0 || edges[i] >= nnodes)
      return call.fail(comm, MPI_ERR_ARG, "edges[%d]=%d not in [0,%d)", i, edges[i], nnodes);
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi
