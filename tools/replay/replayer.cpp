// SPDX-License-Identifier: Apache-2.0
#include "tools/replay/replayer.hpp"

#include <simmpi.h>
#include <simmpi_compute.h>

#include <algorithm>

namespace simmpi::replay {

namespace ct = runtime::call_trace;
using ct::Kind;

namespace {

bool is_wildcard(int source, int tag) {
  return source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
}

}  // namespace

Replayer::Replayer(const std::string& directory, int rank, int ranks)
    : in_(directory, rank, ranks) {
  comms_[MPI_COMM_WORLD] = MPI_COMM_WORLD;
  comms_[MPI_COMM_SELF] = MPI_COMM_SELF;
  comms_[MPI_COMM_NULL] = MPI_COMM_NULL;
  sizes_[MPI_COMM_WORLD] = ranks;
  sizes_[MPI_COMM_SELF] = 1;
}

Replayer::~Replayer() {
  simmpi_shared_free(send_.p);
  simmpi_shared_free(recv_.p);
  for (void* p : outgrown_) simmpi_shared_free(p);
  simmpi_shared_free(bsend_);
}

void Replayer::run() {
  Record r;
  while (in_.next(r)) dispatch(r);
}

// One branch per family of records; each family's function reads the fields it knows.
void Replayer::dispatch(const Record& r) {
  switch (r.kind) {
    case Kind::Kernel:
      kernels_[r.fields.at(0)] = r.text;
      return;
    case Kind::Compute:
    case Kind::Sleep:
      return compute(r);
    case Kind::Untraced:
      return untraced(r);
    case Kind::Init:
      MPI_Init(nullptr, nullptr);
      return;
    case Kind::Finalize:
      MPI_Finalize();
      return;
    case Kind::Send:
    case Kind::Isend:
    case Kind::Recv:
    case Kind::Irecv:
    case Kind::Sendrecv:
    case Kind::SendrecvReplace:
      return point_to_point(r);
    case Kind::BufferAttach:
    case Kind::BufferDetach:
      return bsend_buffer(r);
    case Kind::SendInit:
    case Kind::RecvInit:
    case Kind::Start:
    case Kind::Startall:
      return persistent(r);
    case Kind::PartitionedInit:
    case Kind::Pready:
    case Kind::Parrived:
      return partitioned(r);
    case Kind::GrequestStart:
    case Kind::GrequestComplete:
      return generalized(r);
    case Kind::Probe:
    case Kind::Iprobe:
    case Kind::PollRounds:
      return probe(r);
    case Kind::IprobeLoop:
      return probe_loop(r);
    case Kind::Mprobe:
    case Kind::Improbe:
    case Kind::Mrecv:
    case Kind::Imrecv:
      return matched(r);
    case Kind::Wait:
    case Kind::Waitall:
    case Kind::Test:
    case Kind::Testall:
    case Kind::RequestFree:
      return completion(r);
    case Kind::Waitany:
    case Kind::Waitsome:
    case Kind::Testany:
    case Kind::Testsome:
      return some_or_any(r);
    case Kind::Barrier:
    case Kind::Allreduce:
    case Kind::Allgather:
    case Kind::Alltoall:
    case Kind::ReduceScatterBlock:
    case Kind::ReduceScatter:
    case Kind::Scan:
    case Kind::Exscan:
      return collective(r);
    case Kind::Bcast:
    case Kind::Reduce:
    case Kind::Gather:
    case Kind::Scatter:
      return rooted(r);
    case Kind::Allgatherv:
    case Kind::Alltoallv:
    case Kind::Alltoallw:
    case Kind::Gatherv:
    case Kind::Scatterv:
      return vector_collective(r);
    case Kind::CommDup:
    case Kind::CommSplit:
    case Kind::CommCreate:
    case Kind::CommFree:
    case Kind::IntercommCreate:
    case Kind::IntercommMerge:
    case Kind::CommCreateGroup:
      return communicator(r);
    case Kind::CommIdup:
    case Kind::CommIdupMade:
      return idup(r);
    case Kind::SessionInit:
    case Kind::SessionFinalize:
      return session(r);
    case Kind::CommCreateFromGroup:
    case Kind::IntercommCreateFromGroups:
      return from_groups(r);
    case Kind::CartCreate:
    case Kind::CartSub:
    case Kind::GraphCreate:
    case Kind::DistGraphCreateAdjacent:
    case Kind::DistGraphCreate:
      return topology(r);
    case Kind::NeighborAllgather:
    case Kind::NeighborAlltoall:
      return neighbor_uniform(r);
    case Kind::NeighborAllgatherv:
    case Kind::NeighborAlltoallv:
      return neighbor_vector(r);
    case Kind::NeighborAlltoallw:
      return neighbor_alltoallw(r);
    case Kind::Cancel:
      return completion(r);
    case Kind::WinCreate:
    case Kind::WinFree:
      return window_lifetime(r);
    case Kind::RmaOperation:
      return rma_operation(r);
    case Kind::WinFence:
    case Kind::WinLock:
    case Kind::WinUnlock:
    case Kind::WinLockAll:
    case Kind::WinUnlockAll:
    case Kind::WinFlush:
    case Kind::WinFlushAll:
    case Kind::WinFlushLocal:
    case Kind::WinFlushLocalAll:
    case Kind::WinSync:
    case Kind::WinPost:
    case Kind::WinStart:
    case Kind::WinComplete:
    case Kind::WinWait:
    case Kind::WinTest:
      return rma_sync(r);
    default:  // End, and the persistent kinds (the reader gives their collective's)
      break;
  }
  in_.fail("a record the replay does not expect here");
}

void Replayer::compute(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Sleep) {
    simmpi_sleep(static_cast<double>(f.next()) / 1e12);
    return;
  }
  const std::int64_t id = f.next();
  auto k = kernels_.find(id);
  if (k == kernels_.end()) in_.fail("kernel " + std::to_string(id) + " was never named");
  const double ops = f.real(), bytes = f.real();
  const long m = f.i(), n = f.i(), kk = f.i();
  (void)simmpi_compute_kernel(k->second.c_str(), ops, bytes, m, n, kk);
}

void Replayer::untraced(const Record& r) {
  if (r.text == "MPI_Wtime") {
    (void)MPI_Wtime();  // it costs mpi.poll_cost
  } else if (r.text == "MPI_Op_create") {
    (void)op(user_ops_[0] == MPI_OP_NULL ? ct::kUserOpCommutative : ct::kUserOpNoncommutative);
  } else if (ct::is_local_call(r.text)) {
    int flag;
    MPI_Initialized(&flag);  // the call let the rank's own time pass, as every call does
  } else {
    in_.fail("the program called " + r.text +
             ", which simmpi-replay cannot make (not implemented for replay)");
  }
}

Replayer::SendArgs Replayer::send_args(Fields& f) {
  SendArgs a;
  a.mode = f.i();
  a.count = f.i();
  a.type = type(f.next(), &a.count);
  a.dest = f.i();
  a.tag = f.i();
  a.comm = comm(f.next());
  a.buf = send_buffer(a.count);
  return a;
}

void Replayer::point_to_point(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Send || r.kind == Kind::Isend) {
    const SendArgs a = send_args(f);
    if (r.kind == Kind::Send) {
      if (a.mode == 1) return (void)MPI_Ssend(a.buf, a.count, a.type, a.dest, a.tag, a.comm);
      if (a.mode == 2) return (void)MPI_Rsend(a.buf, a.count, a.type, a.dest, a.tag, a.comm);
      if (a.mode == 3) return (void)MPI_Bsend(a.buf, a.count, a.type, a.dest, a.tag, a.comm);
      return (void)MPI_Send(a.buf, a.count, a.type, a.dest, a.tag, a.comm);
    }
    const std::int64_t recorded = f.next();
    MPI_Request q;
    if (a.mode == 1)
      MPI_Issend(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    else if (a.mode == 2)
      MPI_Irsend(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    else if (a.mode == 3)
      MPI_Ibsend(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    else
      MPI_Isend(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    return made(recorded, q);
  }
  if (r.kind == Kind::Recv || r.kind == Kind::Irecv) {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count);
    int source = f.i(), tag = f.i();
    const MPI_Comm c = comm(f.next());
    if (is_wildcard(source, tag)) ++notes_.wildcards;
    if (r.kind == Kind::Irecv) {  // posted before it matched: the wildcard stays
      const std::int64_t recorded = f.next();
      MPI_Request q;
      MPI_Irecv(recv_buffer(count), count, t, source, tag, c, &q);
      return made(recorded, q);
    }
    const int msrc = f.i(), mtag = f.i();
    if (source == MPI_ANY_SOURCE) source = msrc;  // the recorded matching
    if (tag == MPI_ANY_TAG) tag = mtag;
    MPI_Recv(recv_buffer(count), count, t, source, tag, c, MPI_STATUS_IGNORE);
    return;
  }
  if (r.kind == Kind::Sendrecv) {
    int scount = f.i();
    const MPI_Datatype st = type(f.next(), &scount);
    const int dest = f.i(), stag = f.i();
    int rcount = f.i();
    const MPI_Datatype rt = type(f.next(), &rcount);
    int source = f.i(), rtag = f.i();
    const MPI_Comm c = comm(f.next());
    const int msrc = f.i(), mtag = f.i();
    if (is_wildcard(source, rtag)) ++notes_.wildcards;
    if (source == MPI_ANY_SOURCE) source = msrc;
    if (rtag == MPI_ANY_TAG) rtag = mtag;
    MPI_Sendrecv(send_buffer(scount), scount, st, dest, stag, recv_buffer(rcount), rcount, rt,
                 source, rtag, c, MPI_STATUS_IGNORE);
    return;
  }
  int count = f.i();  // MPI_Sendrecv_replace
  const MPI_Datatype t = type(f.next(), &count);
  const int dest = f.i(), stag = f.i();
  int source = f.i(), rtag = f.i();
  const MPI_Comm c = comm(f.next());
  const int msrc = f.i(), mtag = f.i();
  if (is_wildcard(source, rtag)) ++notes_.wildcards;
  if (source == MPI_ANY_SOURCE) source = msrc;
  if (rtag == MPI_ANY_TAG) rtag = mtag;
  MPI_Sendrecv_replace(recv_buffer(count), count, t, dest, stag, source, rtag, c,
                       MPI_STATUS_IGNORE);
}

// The buffer of buffered sends: folded memory of the recorded size (simmpi only counts its
// bytes); the detach waits, as the program's did, until the buffered messages have left.
void Replayer::bsend_buffer(const Record& r) {
  if (r.kind == Kind::BufferAttach) {
    const MPI_Count size = Fields(r).next();
    bsend_ = simmpi_shared_malloc(static_cast<std::size_t>(std::max<MPI_Count>(size, 1)));
    MPI_Buffer_attach_c(bsend_, size);
    return;
  }
  void* p = nullptr;
  MPI_Count size = 0;
  MPI_Buffer_detach_c(&p, &size);
  simmpi_shared_free(bsend_);
  bsend_ = nullptr;
}

// Persistent requests are made as the recording made them and started by the recorded
// MPI_Start(all); the Wait and Test records complete them (they stay, inactive, until freed).
// Their buffers are the shared folded ones, kept allocated when outgrown (outgrown_).
void Replayer::persistent(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Start) {
    const std::int64_t recorded = f.next();
    MPI_Request q = request(recorded);
    MPI_Start(&q);
    return update(recorded, q);
  }
  if (r.kind == Kind::Startall) {
    const std::vector<int> recorded = f.array();
    std::vector<MPI_Request> q = requests(recorded);
    MPI_Startall(static_cast<int>(q.size()), q.data());
    return put_back(recorded, q);
  }
  MPI_Request q;
  if (r.kind == Kind::SendInit) {
    const SendArgs a = send_args(f);
    if (a.mode == 1)
      MPI_Ssend_init(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    else if (a.mode == 2)
      MPI_Rsend_init(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    else if (a.mode == 3)
      MPI_Bsend_init(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
    else
      MPI_Send_init(a.buf, a.count, a.type, a.dest, a.tag, a.comm, &q);
  } else {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count);
    const int source = f.i(), tag = f.i();
    const MPI_Comm c = comm(f.next());
    if (is_wildcard(source, tag)) ++notes_.wildcards;  // matched at each start, as recorded
    MPI_Recv_init(recv_buffer(count), count, t, source, tag, c, &q);
  }
  made(f.next(), q);
}

// Partitioned requests are made as recorded and started by MPI_Start(all) as persistent ones;
// the partitions are marked ready as the recording marked them. An MPI_Parrived whose outcome
// differs from the recording's polls, where the recording found the partition there, until it
// is (as the program's loop would).
void Replayer::partitioned(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::PartitionedInit) {
    const bool send = f.next() != 0;
    const int partitions = f.i();
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count);
    const int peer = f.i(), tag = f.i();
    const MPI_Comm c = comm(f.next());
    const std::int64_t elements = std::int64_t{count} * partitions;
    MPI_Request q;
    if (send)
      MPI_Psend_init(send_buffer(elements), partitions, count, t, peer, tag, c, MPI_INFO_NULL, &q);
    else
      MPI_Precv_init(recv_buffer(elements), partitions, count, t, peer, tag, c, MPI_INFO_NULL, &q);
    return made(f.next(), q);
  }
  if (r.kind == Kind::Pready) {
    const int form = f.i();
    std::vector<int> parts = f.array();
    const MPI_Request q = request(f.next());
    if (form == 0 && parts.size() == 1)
      MPI_Pready(parts[0], q);
    else if (form == 1 && !parts.empty())
      MPI_Pready_range(parts.front(), parts.back(), q);
    else
      MPI_Pready_list(static_cast<int>(parts.size()), parts.data(), q);
    return;
  }
  const MPI_Request q = request(f.next());
  const int partition = f.i();
  const std::int64_t recorded_flag = f.next();
  int flag = 0;
  ++notes_.polls;
  MPI_Parrived(q, partition, &flag);
  outcome(recorded_flag, flag);
  while (recorded_flag && !flag) MPI_Parrived(q, partition, &flag);
}

namespace {

// A generalized request's callbacks: the program's did its own work, which the trace keeps as
// the time it took; the replay's have nothing to do.
int query_nothing(void*, MPI_Status*) {
  return MPI_SUCCESS;
}
int free_nothing(void*) {
  return MPI_SUCCESS;
}
int cancel_nothing(void*, int) {
  return MPI_SUCCESS;
}

}  // namespace

void Replayer::generalized(const Record& r) {
  Fields f(r);
  const std::int64_t recorded = f.next();
  if (r.kind == Kind::GrequestComplete) {  // by the handle it was made with, even if freed since
    auto g = grequests_.find(recorded);
    if (g == grequests_.end())
      in_.fail("generalized request " + std::to_string(recorded) +
               " was not made by an earlier "
               "record");
    MPI_Grequest_complete(g->second);
    grequests_.erase(g);
    return;
  }
  MPI_Request q;
  MPI_Grequest_start(&query_nothing, &free_nothing, &cancel_nothing, nullptr, &q);
  made(recorded, q);
  grequests_[recorded] = q;
}

void Replayer::probe(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::PollRounds) {
    const double seconds = f.real();
    const long rounds = static_cast<long>(f.next());
    const int source = f.i(), tag = f.i();
    const MPI_Comm c = comm(f.next());
    long round = 0;
    ++notes_.polls;
    simmpi_poll_rounds(seconds, rounds, source, tag, c, &round);
    return outcome(f.next(), round);
  }
  int source = f.i(), tag = f.i();
  const MPI_Comm c = comm(f.next());
  if (r.kind == Kind::Iprobe) {
    int flag = 0;
    ++notes_.polls;
    MPI_Iprobe(source, tag, c, &flag, MPI_STATUS_IGNORE);
    return outcome(f.next(), flag);
  }
  if (is_wildcard(source, tag)) ++notes_.wildcards;
  const int msrc = f.i(), mtag = f.i();
  if (source == MPI_ANY_SOURCE) source = msrc;
  if (tag == MPI_ANY_TAG) tag = mtag;
  MPI_Probe(source, tag, c, MPI_STATUS_IGNORE);
}

// Matched probes take the source and tag the recording matched (as blocking probes do). Where
// an MPI_Improbe's outcome differs from the recording's (another platform): one that found
// nothing in the recording but a message here keeps that message aside (early_) for the probe
// that found it in the recording; one that found a message in the recording but none here
// waits for it (MPI_Mprobe), as a test that differed waits.
void Replayer::matched(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Mrecv || r.kind == Kind::Imrecv) {
    int count = f.i();
    const MPI_Datatype t = type(f.next(), &count);
    const std::int64_t recorded = f.next();
    auto m = messages_.find(recorded);
    if (m == messages_.end())
      in_.fail("message " + std::to_string(recorded) + " was not matched by an earlier record");
    MPI_Message ours = m->second;
    messages_.erase(m);
    if (r.kind == Kind::Mrecv)
      return (void)MPI_Mrecv(recv_buffer(count), count, t, &ours, MPI_STATUS_IGNORE);
    MPI_Request q;
    MPI_Imrecv(recv_buffer(count), count, t, &ours, &q);
    return made(f.next(), q);
  }
  int source = f.i(), tag = f.i();
  const MPI_Comm c = comm(f.next());
  const bool immediate = r.kind == Kind::Improbe;
  const bool found = immediate ? f.next() != 0 : true;
  const int msrc = f.i(), mtag = f.i();
  const std::int64_t recorded = f.next();
  if (is_wildcard(source, tag)) ++notes_.wildcards;
  if (found) {
    if (source == MPI_ANY_SOURCE) source = msrc;
    if (tag == MPI_ANY_TAG) tag = mtag;
  }
  MPI_Message ours = MPI_MESSAGE_NULL;
  if (found && take_early(c, source, tag, &ours)) {
    ++notes_.polls, outcome(1, 0);  // found here by an earlier probe
  } else if (!immediate) {
    MPI_Mprobe(source, tag, c, &ours, MPI_STATUS_IGNORE);
  } else {
    int flag = 0;
    MPI_Status st;
    ++notes_.polls;
    MPI_Improbe(source, tag, c, &flag, &ours, &st);
    outcome(found, flag);
    if (flag && !found) early_.push_back({c, st.MPI_SOURCE, st.MPI_TAG, ours});
    if (!flag && found) MPI_Mprobe(source, tag, c, &ours, MPI_STATUS_IGNORE);
  }
  if (found) messages_[recorded] = ours;
}

bool Replayer::take_early(MPI_Comm c, int source, int tag, MPI_Message* out) {
  for (auto e = early_.begin(); e != early_.end(); ++e) {
    if (e->comm != c || (source != MPI_ANY_SOURCE && source != e->source) ||
        (tag != MPI_ANY_TAG && tag != e->tag))
      continue;
    *out = e->message;
    early_.erase(e);
    return true;
  }
  return false;
}

// A polling loop (call_trace_format.hpp): one that ended finding its message polls until the
// message is there on the replay's platform, at the recorded loop's rhythm (one MPI_Iprobe
// after the other: simmpi_poll_rounds finds the first whose probe sees it), then makes that
// probe; the number of fruitless polls is the platform's. One that ended otherwise makes the
// recorded number of fruitless polls.
void Replayer::probe_loop(const Record& r) {
  Fields f(r);
  const int source = f.i(), tag = f.i();
  const MPI_Comm c = comm(f.next());
  const std::int64_t failed = f.next();
  const bool found = f.next() != 0;
  int flag = 0;
  if (found) {
    long round = 0;
    ++notes_.polls;
    simmpi_poll_rounds(0.0, -1, source, tag, c, &round);
    MPI_Iprobe(source, tag, c, &flag, MPI_STATUS_IGNORE);
    return outcome(1, flag);
  }
  notes_.polls += failed;
  std::int64_t one_by_one = 1;  // the first poll made as an MPI_Iprobe of its own
  if (failed > 1) {  // all in one call, up to the first that finds something on this platform
    long round = 0;
    simmpi_poll_rounds(0.0, static_cast<long>(failed), source, tag, c, &round);
    one_by_one = round ? round : failed + 1;
  }
  for (std::int64_t i = one_by_one; i <= failed; ++i) {
    MPI_Iprobe(source, tag, c, &flag, MPI_STATUS_IGNORE);
    outcome(0, flag);
  }
}

void Replayer::completion(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::Wait || r.kind == Kind::RequestFree || r.kind == Kind::Test ||
      r.kind == Kind::Cancel) {
    const std::int64_t recorded = f.next();
    MPI_Request q = request(recorded);
    if (r.kind == Kind::Cancel) {  // the completion that follows says what became of it
      ++notes_.cancels;
      MPI_Cancel(&q);
    } else if (r.kind == Kind::Wait) {
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (r.kind == Kind::RequestFree) {
      MPI_Request_free(&q);
    } else {
      int flag = 0;
      ++notes_.polls;
      MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
      const std::int64_t recorded_flag = f.next();
      outcome(recorded_flag, flag);
      if (recorded_flag && !flag) MPI_Wait(&q, MPI_STATUS_IGNORE);  // as recorded: complete
    }
    return update(recorded, q);
  }
  const std::vector<int> recorded = f.array();
  std::vector<MPI_Request> q = requests(recorded);
  if (r.kind == Kind::Waitall) {
    MPI_Waitall(static_cast<int>(q.size()), q.data(), MPI_STATUSES_IGNORE);
  } else {
    int flag = 0;
    ++notes_.polls;
    MPI_Testall(static_cast<int>(q.size()), q.data(), &flag, MPI_STATUSES_IGNORE);
    const std::int64_t recorded_flag = f.next();
    outcome(recorded_flag, flag);
    if (recorded_flag && !flag)
      MPI_Waitall(static_cast<int>(q.size()), q.data(), MPI_STATUSES_IGNORE);
  }
  put_back(recorded, q);
}

// The calls that complete some of their requests: the replay completes the ones the recording
// completed, after the call itself (which may complete others: they are then done early).
void Replayer::some_or_any(const Record& r) {
  Fields f(r);
  const std::vector<int> recorded = f.array();
  std::vector<MPI_Request> q = requests(recorded);
  const int n = static_cast<int>(q.size());
  std::vector<int> done;  // indices the recording completed
  std::vector<int> ours(q.size());
  int count = 0, index = MPI_UNDEFINED, flag = 0;
  ++notes_.polls;
  if (r.kind == Kind::Waitany || r.kind == Kind::Testany) {
    const int recorded_index = f.i();
    if (r.kind == Kind::Waitany) {
      MPI_Waitany(n, q.data(), &index, MPI_STATUS_IGNORE);
      outcome(recorded_index, index);
    } else {
      MPI_Testany(n, q.data(), &index, &flag, MPI_STATUS_IGNORE);
      const int recorded_flag = f.i();
      outcome(std::int64_t{recorded_index} * 2 + recorded_flag, std::int64_t{index} * 2 + flag);
    }
    if (recorded_index != MPI_UNDEFINED) done.push_back(recorded_index);
  } else {
    done = f.array();
    if (r.kind == Kind::Waitsome)
      MPI_Waitsome(n, q.data(), &count, ours.data(), MPI_STATUSES_IGNORE);
    else
      MPI_Testsome(n, q.data(), &count, ours.data(), MPI_STATUSES_IGNORE);
    ours.resize(static_cast<std::size_t>(std::max(count, 0)));
    outcome(ours == done, 1);
  }
  for (int i : done) {
    if (i < 0 || i >= n) in_.fail("a completed index out of the requests' range");
    if (q[static_cast<std::size_t>(i)] != MPI_REQUEST_NULL)
      MPI_Wait(&q[static_cast<std::size_t>(i)], MPI_STATUS_IGNORE);
  }
  put_back(recorded, q);
}

void Replayer::outcome(std::int64_t recorded, std::int64_t replayed) {
  if (recorded != replayed) ++notes_.differed;
}

}  // namespace simmpi::replay
