// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's collectives and communicators (see replayer.hpp).
#include <algorithm>

#include "tools/replay/replayer.hpp"

namespace simmpi::replay {

namespace ct = runtime::call_trace;
using ct::Kind;

namespace {

// A collective's request: made for a nonblocking one (recorded as its request handle).
struct Nonblocking {
  std::int64_t recorded;
  MPI_Request q = MPI_REQUEST_NULL;
  MPI_Request* out() { return recorded == ct::kNoRequest ? nullptr : &q; }
};

std::int64_t span(const std::vector<int>& counts, const std::vector<int>& displs) {
  std::int64_t s = 0;
  for (std::size_t i = 0; i < counts.size() && i < displs.size(); ++i)
    s = std::max<std::int64_t>(s, std::int64_t{displs[i]} + counts[i]);
  return s;
}

// Counts (or displacements) of a derived type's elements, as bytes.
void scale(std::vector<int>& v, int factor) {
  for (int& x : v) x *= factor;
}

}  // namespace

// The blocking and nonblocking forms are one record each: a request field of kNoRequest means
// the blocking call.
void Replayer::collective(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Barrier) {
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next()};
    nb.out() ? MPI_Ibarrier(c, nb.out()) : MPI_Barrier(c);
    if (nb.out()) made(nb.recorded, nb.q);
    return;
  }
  const bool inplace = f.next() != 0;
  if (r.kind == Kind::Allgather || r.kind == Kind::Alltoall) {
    int scount = f.i();
    const MPI_Datatype st = type(f.next(), &scount);
    int rcount = f.i();
    const MPI_Datatype rt = type(f.next(), &rcount);
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next()};
    const std::int64_t n = comm_size(c);
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(std::int64_t{scount} * n);
    void* rbuf = recv_buffer(std::int64_t{rcount} * n);
    if (r.kind == Kind::Allgather)
      nb.out() ? MPI_Iallgather(sbuf, scount, st, rbuf, rcount, rt, c, nb.out())
               : MPI_Allgather(sbuf, scount, st, rbuf, rcount, rt, c);
    else
      nb.out() ? MPI_Ialltoall(sbuf, scount, st, rbuf, rcount, rt, c, nb.out())
               : MPI_Alltoall(sbuf, scount, st, rbuf, rcount, rt, c);
    if (nb.out()) made(nb.recorded, nb.q);
    return;
  }
  if (r.kind == Kind::ReduceScatter) {
    std::vector<int> counts = f.array();
    int one = 1;
    const MPI_Datatype t = type(f.next(), &one, true);
    const MPI_Op o = op(f.next());
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next()};
    std::int64_t elements = 0;
    for (int x : counts) elements += x;
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(elements);
    void* rbuf = recv_buffer(elements);
    nb.out() ? MPI_Ireduce_scatter(sbuf, rbuf, counts.data(), t, o, c, nb.out())
             : MPI_Reduce_scatter(sbuf, rbuf, counts.data(), t, o, c);
    if (nb.out()) made(nb.recorded, nb.q);
    return;
  }
  int count = f.i();  // the reductions: allreduce, reduce_scatter_block, scan, exscan
  const MPI_Datatype t = type(f.next(), &count, true);
  const MPI_Op o = op(f.next());
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next()};
  const std::int64_t elements =
      r.kind == Kind::ReduceScatterBlock ? std::int64_t{count} * comm_size(c) : count;
  const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(elements);
  void* rbuf = recv_buffer(elements);
  MPI_Request* q = nb.out();
  if (r.kind == Kind::Allreduce)
    q ? MPI_Iallreduce(sbuf, rbuf, count, t, o, c, q) : MPI_Allreduce(sbuf, rbuf, count, t, o, c);
  else if (r.kind == Kind::ReduceScatterBlock)
    q ? MPI_Ireduce_scatter_block(sbuf, rbuf, count, t, o, c, q)
      : MPI_Reduce_scatter_block(sbuf, rbuf, count, t, o, c);
  else if (r.kind == Kind::Scan)
    q ? MPI_Iscan(sbuf, rbuf, count, t, o, c, q) : MPI_Scan(sbuf, rbuf, count, t, o, c);
  else
    q ? MPI_Iexscan(sbuf, rbuf, count, t, o, c, q) : MPI_Exscan(sbuf, rbuf, count, t, o, c);
  if (q) made(nb.recorded, nb.q);
}

void Replayer::rooted(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Bcast) {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count);
    const int root = f.i();
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next()};
    void* buf = recv_buffer(count);
    nb.out() ? MPI_Ibcast(buf, count, t, root, c, nb.out()) : MPI_Bcast(buf, count, t, root, c);
    if (nb.out()) made(nb.recorded, nb.q);
    return;
  }
  const bool inplace = f.next() != 0;
  if (r.kind == Kind::Reduce) {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count, true);
    const MPI_Op o = op(f.next());
    const int root = f.i();
    const MPI_Comm c = comm(f.next());
    Nonblocking nb{f.next()};
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(count);
    void* rbuf = recv_buffer(count);
    nb.out() ? MPI_Ireduce(sbuf, rbuf, count, t, o, root, c, nb.out())
             : MPI_Reduce(sbuf, rbuf, count, t, o, root, c);
    if (nb.out()) made(nb.recorded, nb.q);
    return;
  }
  int scount = f.i();  // gather and scatter
  const MPI_Datatype st = type(f.next(), &scount);
  int rcount = f.i();
  const MPI_Datatype rt = type(f.next(), &rcount);
  const int root = f.i();
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next()};
  const std::int64_t n = comm_size(c);
  if (r.kind == Kind::Gather) {
    const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(scount);
    void* rbuf = recv_buffer(std::int64_t{rcount} * n);
    nb.out() ? MPI_Igather(sbuf, scount, st, rbuf, rcount, rt, root, c, nb.out())
             : MPI_Gather(sbuf, scount, st, rbuf, rcount, rt, root, c);
  } else {
    const void* sbuf = send_buffer(std::int64_t{scount} * n);
    void* rbuf = inplace ? MPI_IN_PLACE : recv_buffer(rcount);
    nb.out() ? MPI_Iscatter(sbuf, scount, st, rbuf, rcount, rt, root, c, nb.out())
             : MPI_Scatter(sbuf, scount, st, rbuf, rcount, rt, root, c);
  }
  if (nb.out()) made(nb.recorded, nb.q);
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
  Nonblocking nb{f.next()};
  scale(scounts, sfactor), scale(sdispls, sfactor), scale(rcounts, rfactor),
      scale(rdispls, rfactor);
  MPI_Request* q = nb.out();
  const void* sbuf = inplace && r.kind != Kind::Scatterv
                         ? MPI_IN_PLACE
                         : send_buffer(std::max<std::int64_t>(scount, span(scounts, sdispls)));
  void* rbuf = inplace && r.kind == Kind::Scatterv
                   ? MPI_IN_PLACE
                   : recv_buffer(std::max<std::int64_t>(rcount, span(rcounts, rdispls)));
  if (r.kind == Kind::Allgatherv)
    q ? MPI_Iallgatherv(sbuf, scount, st, rbuf, rcounts.data(), rdispls.data(), rt, c, q)
      : MPI_Allgatherv(sbuf, scount, st, rbuf, rcounts.data(), rdispls.data(), rt, c);
  else if (r.kind == Kind::Gatherv)
    q ? MPI_Igatherv(sbuf, scount, st, rbuf, rcounts.data(), rdispls.data(), rt, root, c, q)
      : MPI_Gatherv(sbuf, scount, st, rbuf, rcounts.data(), rdispls.data(), rt, root, c);
  else if (r.kind == Kind::Scatterv)
    q ? MPI_Iscatterv(sbuf, scounts.data(), sdispls.data(), st, rbuf, rcount, rt, root, c, q)
      : MPI_Scatterv(sbuf, scounts.data(), sdispls.data(), st, rbuf, rcount, rt, root, c);
  else
    q ? MPI_Ialltoallv(sbuf, scounts.data(), sdispls.data(), st, rbuf, rcounts.data(),
                       rdispls.data(), rt, c, q)
      : MPI_Alltoallv(sbuf, scounts.data(), sdispls.data(), st, rbuf, rcounts.data(),
                      rdispls.data(), rt, c);
  if (q) made(nb.recorded, nb.q);
}

// A count and a type per peer on each side; the blocks laid out one after the other (the
// recording's byte displacements are not kept), at the largest element's size apart.
void Replayer::alltoallw(const Record& r) {
  Fields f(r);
  const bool inplace = f.next() != 0;
  struct Side {
    std::vector<int> counts, displs;
    std::vector<MPI_Datatype> types;
    std::int64_t elements = 0;
  } send, recv;
  auto read = [&](Side& s) {
    s.counts = f.array();
    const std::vector<int> types = f.array();
    if (types.size() != s.counts.size()) in_.fail("counts and types of different lengths");
    for (std::size_t i = 0; i < types.size(); ++i) {
      s.types.push_back(type(types[i], &s.counts[i]));
      s.displs.push_back(static_cast<int>(s.elements * kLargestElement));
      s.elements += s.counts[i];
    }
  };
  read(send);
  read(recv);
  const MPI_Comm c = comm(f.next());
  Nonblocking nb{f.next()};
  if (inplace) send = recv;  // ignored by the call; the arrays still need to be valid
  const void* sbuf = inplace ? MPI_IN_PLACE : send_buffer(send.elements);
  void* rbuf = recv_buffer(recv.elements);
  nb.out() ? MPI_Ialltoallw(sbuf, send.counts.data(), send.displs.data(), send.types.data(), rbuf,
                            recv.counts.data(), recv.displs.data(), recv.types.data(), c, nb.out())
           : MPI_Alltoallw(sbuf, send.counts.data(), send.displs.data(), send.types.data(), rbuf,
                           recv.counts.data(), recv.displs.data(), recv.types.data(), c);
  if (nb.out()) made(nb.recorded, nb.q);
}

void Replayer::communicator(const Record& r) {
  Fields f(r);
  const std::int64_t recorded = f.next();
  MPI_Comm c = comm(recorded), made_comm = MPI_COMM_NULL;
  if (r.kind == Kind::CommFree) {
    MPI_Comm_free(&c);
    comms_.erase(recorded);
    return;
  }
  if (r.kind == Kind::CommDup) {
    MPI_Comm_dup(c, &made_comm);
  } else if (r.kind == Kind::CommSplit) {
    const int color = f.i(), key = f.i();
    MPI_Comm_split(c, color, key, &made_comm);
  } else {
    const std::vector<int> members = f.array();
    MPI_Group g, sub;
    MPI_Comm_group(c, &g);
    MPI_Group_incl(g, static_cast<int>(members.size()), members.data(), &sub);
    MPI_Comm_create(c, sub, &made_comm);
    MPI_Group_free(&sub);
    MPI_Group_free(&g);
  }
  const std::int64_t recorded_new = f.next();
  if ((recorded_new == MPI_COMM_NULL) != (made_comm == MPI_COMM_NULL))
    in_.fail("the communicator made differs from the recording's (one of them is MPI_COMM_NULL)");
  comms_[recorded_new] = made_comm;
  if (made_comm != MPI_COMM_NULL) MPI_Comm_size(made_comm, &sizes_[made_comm]);
}

}  // namespace simmpi::replay
