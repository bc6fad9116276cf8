// SPDX-License-Identifier: Apache-2.0
// Lookups and argument checks shared by the topology calls.
#pragma once

#include <memory>
#include <vector>

#include "libsimmpi/comm/group.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/topo/topology.hpp"

namespace simmpi::mpi {

// The caller's communicator `h` and its topology of kind `kind` (0: any kind), or nullptr after
// raising MPI_ERR_COMM or MPI_ERR_TOPOLOGY. `*c` receives the communicator.
Topology* find_topology(ApiCall& call, MPI_Comm h, int kind, Communicator** c, int* err);
// The first `n` members of `c` (the members of a new Cartesian or graph communicator).
Group group_prefix(const Communicator& c, int n);
// Checks a Cartesian shape (MPI_Cart_create, MPI_Cart_map): ndims >= 0 and every dimension
// positive (MPI_ERR_DIMS), at most `size` processes (MPI_ERR_TOPOLOGY). Fills *nodes.
int check_cart_shape(ApiCall& call, MPI_Comm comm, int ndims, const int* dims, const int* periods,
                     int size, int* nodes);
// Checks a graph (MPI_Graph_create, MPI_Graph_map): 0 <= nnodes <= size, index non-decreasing,
// edges in [0, nnodes) (MPI_ERR_ARG).
int check_graph(ApiCall& call, MPI_Comm comm, int nnodes, const int* index, const int* edges,
                int size);

}  // namespace simmpi::mpi
