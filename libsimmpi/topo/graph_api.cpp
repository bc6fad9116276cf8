// SPDX-License-Identifier: Apache-2.0
// Graph topologies: MPI_Graph_create (MPI_Comm_create's algorithm over the first nnodes ranks;
// reorder is accepted and ignored), the queries MPI_Graphdims_get, MPI_Graph_get,
// MPI_Graph_neighbors(_count), MPI_Graph_map, and MPI_Topo_test for every kind.
#include <algorithm>
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/topo/topo_checks.hpp"

using namespace simmpi::mpi;

namespace {

// The graph of `comm` and the checked `rank` of it, or nullptr after raising the error.
Topology* graph_and_rank(ApiCall& call, MPI_Comm comm, int rank, int* err) {
  Communicator* c = nullptr;
  Topology* t = find_topology(call, comm, MPI_GRAPH, &c, err);
  if (t && (rank < 0 || rank >= static_cast<int>(t->index().size()))) {
    *err = call.fail(comm, MPI_ERR_RANK, "rank=%d not in [0,%zu) of the graph", rank,
                     t->index().size());
    return nullptr;
  }
  return t;
}

}  // namespace

extern "C" {

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int,
                     MPI_Comm* comm_graph) {
  ApiCall call("MPI_Graph_create");
  CollChecks k(call, comm_old);
  if (!k.ok()) return k.error();
  int err = check_graph(call, comm_old, nnodes, index, edges, k.comm().size());
  if (err != MPI_SUCCESS) return err;
  if (!comm_graph) return call.fail(comm_old, MPI_ERR_ARG, "comm_graph is NULL");
  k.agree("MPI_Graph_create", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  std::vector<int> ix(index, index + nnodes);
  std::vector<int> ed(edges, edges + (nnodes ? index[nnodes - 1] : 0));
  auto topo = std::make_shared<Topology>(Topology::graph(ix, ed));
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::GraphCreate);
  rec.value(comm_old).array(ix.data(), nnodes);
  rec.array(ed.data(), static_cast<int>(ed.size())).out(comm_graph);
  err = create_comm(call, k.comm(), group_prefix(k.comm(), nnodes), topo, comm_graph);
  if (err != MPI_SUCCESS) rec.cancel();
  if (err != MPI_SUCCESS || *comm_graph == MPI_COMM_NULL) return err;
  const Topology& made = *call.world.find_comm(*comm_graph, call.rank)->topology();
  if (made.index() != ix || made.edges() != ed)
    return rec.cancel(), fail_mismatch(call, comm_old,
                                       "this rank passed another index or edges to "
                                       "MPI_Graph_create than the first member to arrive");
  return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  ApiCall call("MPI_Graphdims_get");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_GRAPH, &c, &err);
  if (!t) return err;
  *nnodes = static_cast<int>(t->index().size());
  *nedges = static_cast<int>(t->edges().size());
  return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  ApiCall call("MPI_Graph_get");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_GRAPH, &c, &err);
  if (!t) return err;
  if (maxindex < 0 || maxedges < 0)
    return call.fail(comm, MPI_ERR_ARG, "maxindex=%d or maxedges=%d is negative", maxindex,
                     maxedges);
  std::copy_n(t->index().begin(), std::min<std::size_t>(t->index().size(), maxindex), index);
  std::copy_n(t->edges().begin(), std::min<std::size_t>(t->edges().size(), maxedges), edges);
  return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  ApiCall call("MPI_Graph_neighbors_count");
  int err = MPI_SUCCESS;
  Topology* t = graph_and_rank(call, comm, rank, &err);
  if (!t) return err;
  *nneighbors = static_cast<int>(t->graph_neighbors(rank).size());
  return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  ApiCall call("MPI_Graph_neighbors");
  int err = MPI_SUCCESS;
  Topology* t = graph_and_rank(call, comm, rank, &err);
  if (!t) return err;
  if (maxneighbors < 0)
    return call.fail(comm, MPI_ERR_ARG, "maxneighbors=%d is negative", maxneighbors);
  std::vector<int> n = t->graph_neighbors(rank);
  std::copy_n(n.begin(), std::min<std::size_t>(n.size(), maxneighbors), neighbors);
  return MPI_SUCCESS;
}

// Ranks stay where they are: the first nnodes ranks make the graph.
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  ApiCall call("MPI_Graph_map");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  int err = check_graph(call, comm, nnodes, index, edges, c->size());
  if (err != MPI_SUCCESS) return err;
  int rank = c->comm_rank(call.rank);
  *newrank = rank < nnodes ? rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int* status) {
  ApiCall call("MPI_Topo_test");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  *status = c->topology() ? c->topology()->kind() : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

}  // extern "C"
