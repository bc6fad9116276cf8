// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's process topologies, made as the program made them, and the neighbourhood
// collectives on them (see replayer.hpp).
#include "tools/replay/collective_call.hpp"
#include "tools/replay/replayer.hpp"

namespace simmpi::replay {

namespace ct = runtime::call_trace;
using ct::Kind;

namespace {

// A recorded distributed graph's weights: MPI_UNWEIGHTED when it had none.
const int* weights(bool weighted, const std::vector<int>& w) {
  if (!weighted) return MPI_UNWEIGHTED;
  return w.empty() ? MPI_WEIGHTS_EMPTY : w.data();
}

int size_of(const std::vector<int>& v) {
  return static_cast<int>(v.size());
}

}  // namespace

// Reorder is passed as 0: simmpi never reorders, so the recording's ranks are these.
void Replayer::topology(const Record& r) {
  Fields f(r);
  const MPI_Comm c = comm(f.next());
  MPI_Comm ours = MPI_COMM_NULL;
  if (r.kind == Kind::CartCreate) {
    const std::vector<int> dims = f.array(), periods = f.array();
    if (dims.size() != periods.size()) in_.fail("dims and periods of different lengths");
    MPI_Cart_create(c, size_of(dims), dims.data(), periods.data(), 0, &ours);
  } else if (r.kind == Kind::CartSub) {
    const std::vector<int> remain = f.array();
    MPI_Cart_sub(c, remain.data(), &ours);
  } else if (r.kind == Kind::GraphCreate) {
    const std::vector<int> index = f.array(), edges = f.array();
    MPI_Graph_create(c, size_of(index), index.data(), edges.data(), 0, &ours);
  } else if (r.kind == Kind::DistGraphCreateAdjacent) {
    const std::vector<int> sources = f.array(), destinations = f.array();
    const bool weighted = f.next() != 0;
    const std::vector<int> sw = f.array(), dw = f.array();
    MPI_Dist_graph_create_adjacent(c, size_of(sources), sources.data(), weights(weighted, sw),
                                   size_of(destinations), destinations.data(),
                                   weights(weighted, dw), MPI_INFO_NULL, 0, &ours);
  } else {
    const std::vector<int> sources = f.array(), degrees = f.array(), destinations = f.array();
    const bool weighted = f.next() != 0;
    const std::vector<int> w = f.array();
    if (sources.size() != degrees.size()) in_.fail("sources and degrees of different lengths");
    MPI_Dist_graph_create(c, size_of(sources), sources.data(), degrees.data(), destinations.data(),
                          weights(weighted, w), MPI_INFO_NULL, 0, &ours);
  }
  made_comm(f.next(), ours);
}

// MPI_Neighbor_allgather and _alltoall: the recorded degrees size the buffers.
void Replayer::neighbor_uniform(const Record& r) {
  Fields f(r);
  int scount = f.i();
  const MPI_Datatype st = type(f.next(), &scount);
  int rcount = f.i();
  const MPI_Datatype rt = type(f.next(), &rcount);
  const MPI_Comm c = comm(f.next());
  const std::int64_t in = f.next(), out = f.next();
  Nonblocking nb{f.next(), r.persistent};
  void* rbuf = recv_buffer(std::int64_t{rcount} * in);
  if (r.kind == Kind::NeighborAllgather) {
    const void* sbuf = send_buffer(scount);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Neighbor_allgather, MPI_Ineighbor_allgather, sbuf, scount, st,
                             rbuf, rcount, rt, c);
  } else {
    const void* sbuf = send_buffer(std::int64_t{scount} * out);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, sbuf, scount, st,
                             rbuf, rcount, rt, c);
  }
  made(nb);
}

// MPI_Neighbor_allgatherv and _alltoallv: counts and displacements in elements of their type
// (a derived type's become bytes).
void Replayer::neighbor_vector(const Record& r) {
  Fields f(r);
  int scount = 0, sfactor = 1, rfactor = 1;
  std::vector<int> scounts, sdispls;
  MPI_Datatype st;
  if (r.kind == Kind::NeighborAllgatherv) {
    scount = f.i();
    st = type(f.next(), &scount);
  } else {
    scounts = f.array();
    sdispls = f.array();
    st = type(f.next(), &sfactor);
  }
  std::vector<int> rcounts = f.array(), rdispls = f.array();
  const MPI_Datatype rt = type(f.next(), &rfactor);
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next(), r.persistent};
  scale(scounts, sfactor), scale(sdispls, sfactor), scale(rcounts, rfactor),
      scale(rdispls, rfactor);
  const void* sbuf = send_buffer(std::max<std::int64_t>(scount, span(scounts, sdispls)));
  void* rbuf = recv_buffer(span(rcounts, rdispls));
  if (r.kind == Kind::NeighborAllgatherv)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, sbuf, scount,
                             st, rbuf, rcounts.data(), rdispls.data(), rt, c);
  else
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, sbuf,
                             scounts.data(), sdispls.data(), st, rbuf, rcounts.data(),
                             rdispls.data(), rt, c);
  made(nb);
}

// A count and a type per neighbour on each side, laid out as MPI_Alltoallw's (the recording's
// byte displacements are not kept).
void Replayer::neighbor_alltoallw(const Record& r) {
  Fields f(r);
  const TypedBlocks send = typed_blocks(f), recv = typed_blocks(f);
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next(), r.persistent};
  const std::vector<MPI_Aint> sdispls(send.displs.begin(), send.displs.end());
  const std::vector<MPI_Aint> rdispls(recv.displs.begin(), recv.displs.end());
  const void* sbuf = send_buffer(send.elements);
  void* rbuf = recv_buffer(recv.elements);
  SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, sbuf,
                           send.counts.data(), sdispls.data(), send.types.data(), rbuf,
                           recv.counts.data(), rdispls.data(), recv.types.data(), c);
  made(nb);
}

}  // namespace simmpi::replay
