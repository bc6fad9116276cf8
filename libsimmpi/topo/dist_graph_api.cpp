// SPDX-License-Identifier: Apache-2.0
// Distributed graph topologies (MPI-3.1 7.5.4). MPI_Dist_graph_create_adjacent costs a
// communicator dup (context id allreduce); MPI_Dist_graph_create first moves every edge to its
// two ends as (kind, peer, weight) triples, with a reduce-scatter and one message per pair of
// ranks that share edges, as MPICH does. Reorder is accepted and ignored. Neighbors are listed in
// the order the edges arrive: by the rank that named the edge, then in its order.
#include <map>
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/comm_tags.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/transport.hpp"
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

// MPICH's exchange (MPIR_Dist_graph_create): a reduce-scatter tells each rank how many peers
// will send it edges and how many ints in all, each rank sends one message to each peer it has
// edges for, and receives its messages from any source. Returns the triples by sending rank.
std::vector<int> exchange_edges(ApiCall& call, Communicator& comm,
                                const std::vector<std::vector<int>>& to) {
  CollContext c(call.world, comm);
  int n = c.size();
  const Datatype& int_type = *find_datatype(MPI_INT);
  std::vector<int> counts(2 * static_cast<std::size_t>(n)), total(counts.size());
  for (std::size_t r = 0; r < to.size(); ++r)
    if (!to[r].empty()) counts[2 * r] = 1, counts[2 * r + 1] = static_cast<int>(to[r].size());
  run_reduce(c, counts.data(), total.data(), 2 * n, Reduction(MPI_SUM, MPI_INT, int_type), 0);
  int mine[2];  // messages, ints
  run_scatter(c, Coll::Scatter, total.data(), uniform(n, sizeof mine), strided(n, sizeof mine),
              mine, sizeof mine, 0);
  std::vector<Request*> sends;
  for (std::size_t r = 0; r < to.size(); ++r)
    if (!to[r].empty())
      sends.push_back(
          c.isend(static_cast<int>(r), kTagDistGraph, to[r].data(), to[r].size() * sizeof(int)));
  std::vector<int> buf(static_cast<std::size_t>(mine[1]));
  std::map<int, std::vector<int>> by_source;
  for (int k = 0, used = 0; k < mine[0]; ++k) {
    Request* r = start_recv(call.world, comm, Channel::Collective, MPI_ANY_SOURCE, kTagDistGraph,
                            buf.data() + used, mine[1] - used, int_type);
    r->internal = true;
    wait_request(call.world, *r);
    MPI_Status st;
    retire_request(call.world, r, &st);
    int got = static_cast<int>(st.simmpi_bytes / static_cast<long long>(sizeof(int)));
    by_source[st.MPI_SOURCE].assign(buf.begin() + used, buf.begin() + used + got);
    used += got;
  }
  c.wait_all(sends);
  std::vector<int> out;
  for (auto& [source, triples] : by_source) out.insert(out.end(), triples.begin(), triples.end());
  return out;
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
  const bool weighted = !unweighted(sourceweights);
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::DistGraphCreateAdjacent);
  rec.value(comm_old).array(sources, indegree).array(destinations, outdegree).value(weighted);
  rec.array(weighted ? sourceweights : nullptr, indegree);
  rec.array(weighted ? destweights : nullptr, outdegree).out(comm_dist_graph);
  Topology::Adjacency a;
  a.sources.assign(sources, sources + indegree);
  a.destinations.assign(destinations, destinations + outdegree);
  a.source_weights.assign(static_cast<std::size_t>(indegree), 1);
  a.dest_weights.assign(static_cast<std::size_t>(outdegree), 1);
  if (weighted && indegree) a.source_weights.assign(sourceweights, sourceweights + indegree);
  if (weighted && outdegree) a.dest_weights.assign(destweights, destweights + outdegree);
  err = create(call, k.comm(), weighted, std::move(a), comm_dist_graph);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
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
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::DistGraphCreate);
  rec.value(comm_old).array(sources, n).array(degrees, n).array(destinations, edges);
  rec.value(!unweighted(weights)).array(unweighted(weights) ? nullptr : weights, edges);
  rec.out(comm_dist_graph);
  std::vector<int> got =
      exchange_edges(call, k.comm(), route_edges(n, sources, degrees, destinations, weights, size));
  err = create(call, k.comm(), !unweighted(weights), adjacency_from(got), comm_dist_graph);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
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
