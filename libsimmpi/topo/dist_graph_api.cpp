// SPDX-License-Identifier: Apache-2.0
// Distributed graph topologies (MPI-3.1 7.5.4). MPI_Dist_graph_create_adjacent costs a
// communicator dup (context id allreduce); MPI_Dist_graph_create first moves every edge to its
// two ends, an all-to-all of counts then of (kind, peer, weight) triples over the old
// communicator, as MPICH does with a reduce-scatter and point-to-point messages. Reorder is
// accepted and ignored. Neighbors are listed in the order the edges arrive: by the rank that
// named the edge, then in its order.
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/topo/topo_checks.hpp"

using namespace simmpi::mpi;

namespace {

bool unweighted(const int* w) {
  return w == MPI_UNWEIGHTED;
}

int check_ranks(ApiCall& call, MPI_Comm comm, const char* what, int n, const int* ranks, int size) {
  if (n < 0) return call.fail(comm, MPI_ERR_ARG, "the count of %s is %d", what, n);
  if (n > 0 && !ranks) return call.fail(comm, MPI_ERR_ARG, "%s is NULL", what);
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= size)
      return call.fail(comm, MPI_ERR_RANK, "%s[%d]=%d not in [0,%d)", what, i, ranks[i], size);
  return MPI_SUCCESS;
}

int check_weights(ApiCall& call, MPI_Comm comm, const char* what, int n, const int* w) {
  if (n > 0 && !unweighted(w) && (!w || w == MPI_WEIGHTS_EMPTY))
    return call.fail(comm, MPI_ERR_ARG, "%s is NULL or MPI_WEIGHTS_EMPTY with %d edges", what, n);
  return MPI_SUCCESS;
}

// Makes the communicator (a dup of `old` with a fresh distributed graph) and gives the caller
// its adjacency.
int create(ApiCall& call, Communicator& old, bool weighted, Topology::Adjacency mine,
           MPI_Comm* out) {
  auto topo = std::make_shared<Topology>(Topology::dist_graph(old.size(), weighted));
  int err = create_comm(call, old, group_of(old), topo, out);
  if (err != MPI_SUCCESS) return err;
  Communicator* c = call.world.find_comm(*out, call.rank);
  c->topology()->adjacency(c->comm_rank(call.rank)) = std::move(mine);
  return MPI_SUCCESS;
}

// Edge triples (kind, peer, weight) bound for each rank: rank s learns its destination d,
// rank d its source s.
enum : int { kIn = 0, kOut = 1 };
std::vector<std::vector<int>> route_edges(int n, const int* sources, const int* degrees,
                                          const int* destinations, const int* weights, int size) {
  std::vector<std::vector<int>> to(static_cast<std::size_t>(size));
  for (int i = 0, e = 0; i < n; ++i)
    for (int j = 0; j < degrees[i]; ++j, ++e) {
      int s = sources[i], d = destinations[e], w = unweighted(weights) ? 1 : weights[e];
      to[static_cast<std::size_t>(s)].insert(to[static_cast<std::size_t>(s)].end(), {kOut, d, w});
      to[static_cast<std::size_t>(d)].insert(to[static_cast<std::size_t>(d)].end(), {kIn, s, w});
    }
  return to;
}

// The all-to-alls: returns the triples every rank sent to the caller, by sending rank.
std::vector<int> exchange_edges(CollContext& c, const std::vector<std::vector<int>>& to) {
  int n = c.size();
  std::vector<int> send_counts(static_cast<std::size_t>(n)), recv_counts(send_counts.size());
  std::vector<int> packed;
  std::vector<std::size_t> sc(send_counts.size()), sd(sc.size()), rc(sc.size()), rd(sc.size());
  for (int r = 0; r < n; ++r) {
    auto u = static_cast<std::size_t>(r);
    send_counts[u] = static_cast<int>(to[u].size());
    sd[u] = packed.size() * sizeof(int);
    sc[u] = to[u].size() * sizeof(int);
    packed.insert(packed.end(), to[u].begin(), to[u].end());
  }
  alltoallv_pairwise(c, send_counts.data(), uniform(n, sizeof(int)), strided(n, sizeof(int)),
                     recv_counts.data(), uniform(n, sizeof(int)), strided(n, sizeof(int)));
  std::size_t total = 0;
  for (int r = 0; r < n; ++r) {
    auto u = static_cast<std::size_t>(r);
    rd[u] = total * sizeof(int);
    rc[u] = static_cast<std::size_t>(recv_counts[u]) * sizeof(int);
    total += static_cast<std::size_t>(recv_counts[u]);
  }
  std::vector<int> got(total);
  alltoallv_pairwise(c, packed.data(), sc, sd, got.data(), rc, rd);
  return got;
}

Topology::Adjacency adjacency_from(const std::vector<int>& triples) {
  Topology::Adjacency a;
  for (std::size_t i = 0; i + 2 < triples.size(); i += 3) {
    bool in = triples[i] == kIn;
    (in ? a.sources : a.destinations).push_back(triples[i + 1]);
    (in ? a.source_weights : a.dest_weights).push_back(triples[i + 2]);
  }
  return a;
}

}  // namespace

extern "C" {

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info, int,
                                   MPI_Comm* comm_dist_graph) {
  ApiCall call("MPI_Dist_graph_create_adjacent");
  CollChecks k(call, comm_old);
  if (!k.ok()) return k.error();
  int size = k.comm().size(), err = MPI_SUCCESS;
  if (!err) err = check_ranks(call, comm_old, "sources", indegree, sources, size);
  if (!err) err = check_ranks(call, comm_old, "destinations", outdegree, destinations, size);
  if (!err) err = check_weights(call, comm_old, "sourceweights", indegree, sourceweights);
  if (!err) err = check_weights(call, comm_old, "destweights", outdegree, destweights);
  if (!err && !comm_dist_graph) err = call.fail(comm_old, MPI_ERR_ARG, "comm_dist_graph is NULL");
  if (err) return err;
  k.agree("MPI_Dist_graph_create_adjacent", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  Topology::Adjacency a;
  a.sources.assign(sources, sources + indegree);
  a.destinations.assign(destinations, destinations + outdegree);
  bool weighted = !unweighted(sourceweights);
  a.source_weights.assign(static_cast<std::size_t>(indegree), 1);
  a.dest_weights.assign(static_cast<std::size_t>(outdegree), 1);
  if (weighted && indegree) a.source_weights.assign(sourceweights, sourceweights + indegree);
  if (weighted && outdegree) a.dest_weights.assign(destweights, destweights + outdegree);
  return create(call, k.comm(), weighted, std::move(a), comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info, int,
                          MPI_Comm* comm_dist_graph) {
  ApiCall call("MPI_Dist_graph_create");
  CollChecks k(call, comm_old);
  if (!k.ok()) return k.error();
  int size = k.comm().size();
  int err = check_ranks(call, comm_old, "sources", n, sources, size);
  int edges = 0;
  for (int i = 0; !err && i < n; ++i) {
    if (!degrees || degrees[i] < 0)
      err = call.fail(comm_old, MPI_ERR_ARG, "degrees[%d] is negative or degrees is NULL", i);
    else
      edges += degrees[i];
  }
  if (!err) err = check_ranks(call, comm_old, "destinations", edges, destinations, size);
  if (!err) err = check_weights(call, comm_old, "weights", edges, weights);
  if (!err && !comm_dist_graph) err = call.fail(comm_old, MPI_ERR_ARG, "comm_dist_graph is NULL");
  if (err) return err;
  k.agree("MPI_Dist_graph_create", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  std::vector<int> got =
      exchange_edges(c, route_edges(n, sources, degrees, destinations, weights, size));
  return create(call, k.comm(), !unweighted(weights), adjacency_from(got), comm_dist_graph);
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  ApiCall call("MPI_Dist_graph_neighbors_count");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_DIST_GRAPH, &c, &err);
  if (!t) return err;
  const Topology::Adjacency& a = t->adjacency(c->comm_rank(call.rank));
  *indegree = static_cast<int>(a.sources.size());
  *outdegree = static_cast<int>(a.destinations.size());
  *weighted = t->weighted();
  return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                             int maxoutdegree, int destinations[], int destweights[]) {
  ApiCall call("MPI_Dist_graph_neighbors");
  Communicator* c = nullptr;
  int err = MPI_SUCCESS;
  Topology* t = find_topology(call, comm, MPI_DIST_GRAPH, &c, &err);
  if (!t) return err;
  const Topology::Adjacency& a = t->adjacency(c->comm_rank(call.rank));
  if (maxindegree < static_cast<int>(a.sources.size()) ||
      maxoutdegree < static_cast<int>(a.destinations.size()))
    return call.fail(comm, MPI_ERR_ARG,
                     "maxindegree=%d or maxoutdegree=%d is less than the "
                     "degrees %zu and %zu",
                     maxindegree, maxoutdegree, a.sources.size(), a.destinations.size());
  for (std::size_t i = 0; i < a.sources.size(); ++i) {
    sources[i] = a.sources[i];
    if (t->weighted() && !unweighted(sourceweights)) sourceweights[i] = a.source_weights[i];
  }
  for (std::size_t i = 0; i < a.destinations.size(); ++i) {
    destinations[i] = a.destinations[i];
    if (t->weighted() && !unweighted(destweights)) destweights[i] = a.dest_weights[i];
  }
  return MPI_SUCCESS;
}

}  // extern "C"
