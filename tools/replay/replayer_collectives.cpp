// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's collectives (see replayer.hpp).
#include <algorithm>

#include "tools/replay/collective_call.hpp"
#include "tools/replay/replayer.hpp"

namespace simmpi::replay {

namespace ct = runtime::call_trace;
using ct::Kind;

// The blocking and nonblocking forms are one record each: a request field of kNoRequest means
// the blocking call; the persistent form has a kind of its own (Record::persistent).
void Replayer::collective(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Barrier) {
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next(), r.persistent};
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Barrier, MPI_Ibarrier, c);
    made(nb);
    return;
  }
  const bool inplace = f.next() != 0;
  if (r.kind == Kind::Allgather || r.kind == Kind::Alltoall) {
    int scount = f.i();
    const MPI_Datatype st = type(f.next(), &scount);
    int rcount = f.i();
    const MPI_Datatype rt = type(f.next(), &rcount);
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next(), r.persistent};
    const std::int64_t n = comm_size(c);
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(std::int64_t{scount} * n);
    void* rbuf = recv_buffer(std::int64_t{rcount} * n);
    if (r.kind == Kind::Allgather)
      SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Allgather, MPI_Iallgather, sbuf, scount, st, rbuf, rcount,
                               rt, c);
    else
      SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Alltoall, MPI_Ialltoall, sbuf, scount, st, rbuf, rcount, rt,
                               c);
    made(nb);
    return;
  }
  if (r.kind == Kind::ReduceScatter) {
    std::vector<int> counts = f.array();
    int one = 1;
    const MPI_Datatype t = type(f.next(), &one, true);
    const MPI_Op o = op(f.next());
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next(), r.persistent};
    std::int64_t elements = 0;
    for (int x : counts) elements += x;
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(elements);
    void* rbuf = recv_buffer(elements);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Reduce_scatter, MPI_Ireduce_scatter, sbuf, rbuf, counts.data(),
                             t, o, c);
    made(nb);
    return;
  }
  int count = f.i();  // the reductions: allreduce, reduce_scatter_block, scan, exscan
  const MPI_Datatype t = type(f.next(), &count, true);
  const MPI_Op o = op(f.next());
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next(), r.persistent};
  const std::int64_t elements =
      r.kind == Kind::ReduceScatterBlock ? std::int64_t{count} * comm_size(c) : count;
  const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(elements);
  void* rbuf = recv_buffer(elements);
  if (r.kind == Kind::Allreduce)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Allreduce, MPI_Iallreduce, sbuf, rbuf, count, t, o, c);
  else if (r.kind == Kind::ReduceScatterBlock)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, sbuf, rbuf,
                             count, t, o, c);
  else if (r.kind == Kind::Scan)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Scan, MPI_Iscan, sbuf, rbuf, count, t, o, c);
  else
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Exscan, MPI_Iexscan, sbuf, rbuf, count, t, o, c);
  made(nb);
}

void Replayer::rooted(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Bcast) {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count);
    const int root = f.i();
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next(), r.persistent};
    void* buf = recv_buffer(count);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Bcast, MPI_Ibcast, buf, count, t, root, c);
    made(nb);
    return;
  }
  const bool inplace = f.next() != 0;
  if (r.kind == Kind::Reduce) {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count, true);
    const MPI_Op o = op(f.next());
    const int root = f.i();
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next(), r.persistent};
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(count);
    void* rbuf = recv_buffer(count);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Reduce, MPI_Ireduce, sbuf, rbuf, count, t, o, root, c);
    made(nb);
    return;
  }
  int scount = f.i();  // gather and scatter
  const MPI_Datatype st = type(f.next(), &scount);
  int rcount = f.i();
  const MPI_Datatype rt = type(f.next(), &rcount);
  const int root = f.i();
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next(), r.persistent};
  const std::int64_t n = comm_size(c);
  if (r.kind == Kind::Gather) {
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(scount);
    void* rbuf = recv_buffer(std::int64_t{rcount} * n);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Gather, MPI_Igather, sbuf, scount, st, rbuf, rcount, rt, root,
                             c);
  } else {
    const void* sbuf = send_buffer(std::int64_t{scount} * n);
    void* rbuf = inplace ? MPI_IN_PLACE : recv_buffer(rcount);
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Scatter, MPI_Iscatter, sbuf, scount, st, rbuf, rcount, rt,
                             root, c);
  }
  made(nb);
}

// Counts and displacements are in elements of their type; a derived type's become bytes.
void Replayer::vector_collective(const Record& r) {
  if (r.kind == Kind::Alltoallw) return alltoallw(r);
  Fields f(r);
  const bool inplace = f.next() != 0;
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  int scount = 0, rcount = 0, sfactor = 1, rfactor = 1, root = 0;
  MPI_Datatype st = MPI_BYTE, rt = MPI_BYTE;
  if (r.kind == Kind::Allgatherv || r.kind == Kind::Gatherv) {
    scount = f.i();
    st = type(f.next(), &scount);
    rcounts = f.array();
    rdispls = f.array();
    rt = type(f.next(), &rfactor);
  } else {
    scounts = f.array();
    sdispls = f.array();
    st = type(f.next(), &sfactor);
    if (r.kind == Kind::Alltoallv) {
      rcounts = f.array();
      rdispls = f.array();
      rt = type(f.next(), &rfactor);
    } else {
      rcount = f.i();
      rt = type(f.next(), &rcount);
    }
  }
  if (r.kind == Kind::Gatherv || r.kind == Kind::Scatterv) root = f.i();
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next(), r.persistent};
  scale(scounts, sfactor), scale(sdispls, sfactor), scale(rcounts, rfactor),
      scale(rdispls, rfactor);
  const void* sbuf = inplace && r.kind != Kind::Scatterv
                         ? MPI_IN_PLACE
                         : send_buffer(std::max<std::int64_t>(scount, span(scounts, sdispls)));
  void* rbuf = inplace && r.kind == Kind::Scatterv
                   ? MPI_IN_PLACE
                   : recv_buffer(std::max<std::int64_t>(rcount, span(rcounts, rdispls)));
  if (r.kind == Kind::Allgatherv)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Allgatherv, MPI_Iallgatherv, sbuf, scount, st, rbuf,
                             rcounts.data(), rdispls.data(), rt, c);
  else if (r.kind == Kind::Gatherv)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Gatherv, MPI_Igatherv, sbuf, scount, st, rbuf, rcounts.data(),
                             rdispls.data(), rt, root, c);
  else if (r.kind == Kind::Scatterv)
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Scatterv, MPI_Iscatterv, sbuf, scounts.data(), sdispls.data(),
                             st, rbuf, rcount, rt, root, c);
  else
    SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Alltoallv, MPI_Ialltoallv, sbuf, scounts.data(),
                             sdispls.data(), st, rbuf, rcounts.data(), rdispls.data(), rt, c);
  made(nb);
}

// A count and a type per peer on each side; the blocks laid out one after the other (the
// recording's byte displacements are not kept).
void Replayer::alltoallw(const Record& r) {
  Fields f(r);
  const bool inplace = f.next() != 0;
  TypedBlocks send = typed_blocks(f), recv = typed_blocks(f);
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next(), r.persistent};
  if (inplace) send = recv;  // ignored by the call; the arrays still need to be valid
  const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(send.elements);
  void* rbuf = recv_buffer(recv.elements);
  SIMMPI_REPLAY_COLLECTIVE(nb, MPI_Alltoallw, MPI_Ialltoallw, sbuf, send.counts.data(),
                           send.displs.data(), send.types.data(), rbuf, recv.counts.data(),
                           recv.displs.data(), recv.types.data(), c);
  made(nb);
}

Replayer::TypedBlocks Replayer::typed_blocks(Fields& f) {
  TypedBlocks s;
  s.counts = f.array();
  const std::vector<int> types = f.array();
  if (types.size() != s.counts.size()) in_.fail("counts and types of different lengths");
  for (std::size_t i = 0; i < types.size(); ++i) {
    s.types.push_back(type(types[i], &s.counts[i]));
    s.displs.push_back(static_cast<int>(s.elements * kLargestElement));
    s.elements += s.counts[i];
  }
  return s;
}

}  // namespace simmpi::replay
