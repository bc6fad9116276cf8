// SPDX-License-Identifier: Apache-2.0
// Partitioned channels: matching in init order, rounds, flows and delivery (partitioned.hpp).
#include "libsimmpi/p2p/partitioned.hpp"

#include <climits>
#include <deque>
#include <map>
#include <tuple>

#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/transport.hpp"
#include "libsimmpi/p2p/typed_copy.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

// One matched (or not yet matched) pair of partitioned requests.
class PartitionedChannel {
 public:
  // One side as its init call described it.
  struct Side {
    bool present = false;  // its init call was made
    int world = -1;        // world rank
    MPI_Request request = MPI_REQUEST_NULL;
    void* buf = nullptr;
    int partitions = 0;
    std::int64_t count = 0;  // elements per partition
    TypeRef type;
    std::uint64_t rounds = 0;  // MPI_Starts so far

    std::uint64_t partition_bytes() const { return type->size * static_cast<std::uint64_t>(count); }
    std::uint64_t total_bytes() const {
      return partition_bytes() * static_cast<std::uint64_t>(partitions);
    }
    TypedBuffer partition(int i) const {
      char* at = static_cast<char*>(buf) + static_cast<std::ptrdiff_t>(i) * count * type->extent;
      return TypedBuffer{world, at, count, type.get()};
    }
  };

  Side send, recv;
  bool null_peer = false;  // MPI_PROC_NULL: nothing moves, every round completes at its start

  // The sender's current round.
  std::vector<char> ready;            // partitions marked ready
  std::vector<int> waiting;           // ready before the clear-to-send came
  std::vector<SimTime> sent_arrived;  // per send partition; max: not yet
  int arrived_count = 0;              // send partitions arrived
  SimTime cts_at[2];                  // clear-to-send of the receiver's rounds, by parity
  std::vector<SimTime> recv_arrived;  // per receive partition, the receiver's current round
  std::vector<char> staging;          // packed message, when the partition sizes differ

  bool matched() const { return send.present && recv.present; }
  bool direct() const { return send.partition_bytes() == recv.partition_bytes(); }
  // Whether the receiver started the sender's current round (its clear-to-send is known).
  bool cleared() const { return matched() && recv.rounds >= send.rounds; }
  SimTime clear_at() const { return cts_at[send.rounds % 2]; }
};

namespace {

// (context the receiver matches on, sender's world rank, receiver's world rank, tag)
using MatchKey = std::tuple<int, int, int, int>;
using Queue = std::map<MatchKey, std::deque<std::shared_ptr<PartitionedChannel>>>;

// Inits still waiting for their peer's, in init order. Keyed by world ranks and context, so
// they need no World: a job has one set.
Queue& unmatched(bool sends) {
  static Queue sends_q, recvs_q;
  return sends ? sends_q : recvs_q;
}

// The request of `side` if it still exists (MPI_Request_free may have released it).
Request* request_of(World& w, const PartitionedChannel& ch, const PartitionedChannel::Side& side) {
  Request* r = w.requests().find(side.request);
  return r && r->partitioned.get() == &ch ? r : nullptr;
}

// A group of send partitions that travels as one flow.
struct Flight {
  std::shared_ptr<PartitionedChannel> ch;
  std::vector<int> parts;
};

void receive_partition_done(World& w, PartitionedChannel& ch, int j, SimTime t) {
  ch.recv_arrived[static_cast<std::size_t>(j)] = t;
  if (ch.direct()) return;
  std::uint64_t rb = ch.recv.partition_bytes();
  unpack_typed(w, ch.staging.data() + rb * static_cast<std::uint64_t>(j), rb, ch.recv.partition(j));
}

// Send partition `i` is at the receiver at `t`: its data goes into the receiver's buffer, and
// the receive partitions it completes are marked.
void deliver(World& w, PartitionedChannel& ch, int i, SimTime t) {
  ch.sent_arrived[static_cast<std::size_t>(i)] = t;
  ++ch.arrived_count;
  std::uint64_t sb = ch.send.partition_bytes(), rb = ch.recv.partition_bytes();
  if (ch.direct()) {
    // Equal partitions of no bytes may differ in number: complete_round marks the rest.
    if (i >= ch.recv.partitions) return;
    copy_typed(w, ch.send.partition(i), ch.recv.partition(i), sb);
    ch.recv_arrived[static_cast<std::size_t>(i)] = t;
    return;
  }
  if (sb == 0) return;
  pack_typed(w, ch.send.partition(i), sb, ch.staging.data() + sb * static_cast<std::uint64_t>(i));
  // Receive partitions overlapping bytes [i*sb, (i+1)*sb), each complete once all its send
  // partitions have arrived, at the latest of their arrivals (a flow's arrival may be known
  // before an earlier one's).
  std::uint64_t first = i * sb / rb, last = ((i + 1) * sb - 1) / rb;
  for (std::uint64_t j = first; j <= last; ++j) {
    std::uint64_t lo = j * rb / sb, hi = ((j + 1) * rb - 1) / sb;
    SimTime latest = t;
    for (std::uint64_t k = lo; k <= hi && latest != SimTime::max(); ++k)
      latest = runtime::max(latest, ch.sent_arrived[k]);
    if (latest != SimTime::max()) receive_partition_done(w, ch, static_cast<int>(j), latest);
  }
}

// The last send partition arrived at `t`: both requests complete.
void complete_round(World& w, PartitionedChannel& ch, SimTime t) {
  // Partitions with no bytes on the receive side (count 0) arrive with the message.
  for (SimTime& a : ch.recv_arrived)
    if (a == SimTime::max()) a = t;
  if (Request* s = request_of(w, ch, ch.send)) complete_request(w, s, t);
  SimTime o_r = w.params().recv_overhead;
  if (Request* r = request_of(w, ch, ch.recv)) complete_request(w, r, t + o_r, o_r);
}

void flight_arrived(void* obj, std::uint64_t, SimTime t) {
  std::unique_ptr<Flight> f(static_cast<Flight*>(obj));
  World& w = World::get();
  PartitionedChannel& ch = *f->ch;
  for (int i : f->parts) deliver(w, ch, i, t);
  if (ch.arrived_count < ch.send.partitions) return;
  SimTime last = t;
  for (SimTime a : ch.sent_arrived) last = runtime::max(last, a);
  complete_round(w, ch, last);
}

void launch_now(void* obj, std::uint64_t) {
  auto* f = static_cast<Flight*>(obj);
  World& w = World::get();
  std::uint64_t bytes = f->ch->send.partition_bytes() * f->parts.size();
  w.platform().transfer(f->ch->send.world, f->ch->recv.world, bytes,
                        hardware::ArrivalNotice{&flight_arrived, f, 0});
}

// Sends `parts` of `ch` as one flow at `t` (>= now).
void launch(World& w, const std::shared_ptr<PartitionedChannel>& ch, std::vector<int> parts,
            SimTime t) {
  auto* f = new Flight{ch, std::move(parts)};
  if (t <= w.now())
    launch_now(f, 0);
  else
    w.engine().schedule(t, runtime::Action{&launch_now, f, 0});
}

void start_send_round(World& w, PartitionedChannel& ch, Request& r) {
  ++ch.send.rounds;
  ch.ready.assign(static_cast<std::size_t>(ch.send.partitions), 0);
  ch.waiting.clear();
  ch.sent_arrived.assign(static_cast<std::size_t>(ch.send.partitions), SimTime::max());
  ch.arrived_count = 0;
  if (ch.null_peer || ch.send.partitions == 0) r.complete_at = w.now();
}

void start_recv_round(World& w, const std::shared_ptr<PartitionedChannel>& ch, Request& r) {
  ++ch->recv.rounds;
  ch->recv_arrived.assign(static_cast<std::size_t>(ch->recv.partitions), SimTime::max());
  // Nothing to wait for: no peer, or no partition on either side (then no byte either).
  if (ch->null_peer || ch->recv.partitions == 0 || (ch->matched() && ch->send.partitions == 0)) {
    r.complete_at = w.now();
    return;
  }
  SimTime cts = w.now() + w.platform().latency(ch->recv.world, ch->send.world);
  ch->cts_at[ch->recv.rounds % 2] = cts;
  if (ch->send.rounds == ch->recv.rounds && !ch->waiting.empty()) {
    launch(w, ch, std::move(ch->waiting), cts);
    ch->waiting.clear();
  }
}

// Fills the side of `ch` that the caller's init call describes.
void fill_side(World& w, PartitionedChannel::Side& s, Request& r, void* buf, int partitions,
               MPI_Count count, const Datatype& type) {
  s.present = true;
  s.world = w.current_rank();
  s.request = r.handle;
  s.buf = buf;
  s.partitions = partitions;
  s.count = count;
  s.type = &type;
}

// The total sizes of a matched pair differ: MPI_ERR_TRUNCATE on the caller, naming both sides.
int mismatch(ApiCall& call, MPI_Comm comm, const PartitionedChannel& ch) {
  auto describe = [](const PartitionedChannel::Side& s) {
    return strprintf("%d partitions x %lld %s = %llu bytes", s.partitions,
                     static_cast<long long>(s.count), s.type->name,
                     static_cast<unsigned long long>(s.total_bytes()));
  };
  return call.fail(comm, MPI_ERR_TRUNCATE,
                   "the partitioned send of rank %d (%s) and the partitioned receive of rank %d "
                   "(%s) it matches in init order differ in total size",
                   ch.send.world, describe(ch.send).c_str(), ch.recv.world,
                   describe(ch.recv).c_str());
}

}  // namespace

int init_partitioned(ApiCall& call, bool send, void* buf, int partitions, MPI_Count count,
                     MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  if (!request) return call.fail(comm, MPI_ERR_ARG, "request is NULL");
  if (partitions < 0) return call.fail(comm, MPI_ERR_ARG, "partitions=%d is negative", partitions);
  if (count < 0 || count > INT_MAX)
    return call.fail(comm, MPI_ERR_COUNT, "count=%lld is not in [0, %d]",
                     static_cast<long long>(count), INT_MAX);
  if (!send && peer == MPI_ANY_SOURCE)
    return call.fail(comm, MPI_ERR_RANK,
                     "source=MPI_ANY_SOURCE: a partitioned receive names "
                     "its source (MPI-4.1 4.2.2)");
  if (!send && tag == MPI_ANY_TAG)
    return call.fail(comm, MPI_ERR_TAG,
                     "tag=MPI_ANY_TAG: a partitioned receive names its tag (MPI-4.1 4.2.2)");
  int elements = partitions > 0 && count > 0 ? 1 : 0;
  P2PTarget t = check_p2p(call, send ? Direction::Send : Direction::Recv, buf, elements, datatype,
                          peer, tag, comm);
  if (!t.ok()) return t.error;
  World& w = call.world;
  Request* r = w.requests().create();
  r->kind = send ? RequestKind::Send : RequestKind::Recv;
  r->persistent = true;
  r->active = false;
  r->owner = call.rank;
  r->waiter = w.scheduler().current()->id();
  r->buf = buf;
  r->type = t.type;
  r->comm = t.comm;
  t.comm->add_request();
  r->peer = peer;
  r->tag = tag;
  r->message_bytes = t.type->size * static_cast<std::uint64_t>(count) * partitions;

  auto fresh = std::make_shared<PartitionedChannel>();
  if (peer == MPI_PROC_NULL) {
    fresh->null_peer = true;
    fill_side(w, send ? fresh->send : fresh->recv, *r, buf, partitions, count, *t.type);
    r->partitioned = fresh;
    *request = r->handle;
    return MPI_SUCCESS;
  }
  int other = t.comm->remote().world_rank(peer);
  int context = send ? t.comm->remote().context_id() : t.comm->context_id();
  MatchKey key =
      send ? MatchKey{context, call.rank, other, tag} : MatchKey{context, other, call.rank, tag};
  auto& waiting_peers = unmatched(!send)[key];
  std::shared_ptr<PartitionedChannel> ch = fresh;
  if (!waiting_peers.empty()) {
    ch = waiting_peers.front();
    waiting_peers.pop_front();
    if (waiting_peers.empty()) unmatched(!send).erase(key);
  } else {
    unmatched(send)[key].push_back(ch);
  }
  fill_side(w, send ? ch->send : ch->recv, *r, buf, partitions, count, *t.type);
  r->partitioned = ch;
  *request = r->handle;
  if (ch->matched() && ch->send.total_bytes() != ch->recv.total_bytes())
    return mismatch(call, comm, *ch);
  if (ch->matched() && !ch->direct()) ch->staging.resize(ch->send.total_bytes());
  return MPI_SUCCESS;
}

void start_partitioned(World& w, Request& r) {
  r.active = true;
  r.complete_at = SimTime::max();
  std::shared_ptr<PartitionedChannel> ch = r.partitioned;
  if (r.kind == RequestKind::Send) {
    r.status = MPI_Status{};
    start_send_round(w, *ch, r);
    return;
  }
  r.status = MPI_Status{r.peer, r.tag, MPI_SUCCESS, 0, static_cast<long long>(r.message_bytes)};
  if (ch->null_peer) r.status = MPI_Status{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0};
  start_recv_round(w, ch, r);
}

namespace {

// The caller's active partitioned request `h` of the kind wanted; nullptr after raising
// MPI_ERR_REQUEST.
Request* active_partitioned(ApiCall& call, MPI_Request h, RequestKind kind, int* err) {
  Request* r = h == MPI_REQUEST_NULL ? nullptr : call.world.requests().find(h);
  const char* want =
      kind == RequestKind::Send ? "send (MPI_Psend_init)" : "receive (MPI_Precv_init)";
  if (!r || r->owner != call.rank || !r->partitioned || r->kind != kind) {
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request=0x%08x is not a partitioned %s request of this rank",
                     static_cast<unsigned>(h), want);
    return nullptr;
  }
  if (!r->active) {
    *err = call.fail(r->comm->handle(), MPI_ERR_REQUEST,
                     "request=0x%08x is inactive: MPI_Start it before marking or testing its "
                     "partitions (MPI-4.1 4.2.3)",
                     static_cast<unsigned>(h));
    return nullptr;
  }
  return r;
}

}  // namespace

int mark_ready(ApiCall& call, MPI_Request request, const std::vector<int>& parts) {
  int err = MPI_SUCCESS;
  Request* r = active_partitioned(call, request, RequestKind::Send, &err);
  if (!r) return err;
  std::shared_ptr<PartitionedChannel> ch = r->partitioned;
  const int n = ch->send.partitions;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    int p = parts[k];
    if (p < 0 || p >= n)
      return call.fail(r->comm->handle(), MPI_ERR_ARG,
                       "partition %d (entry %zu) not in [0,%d) of the partitioned send to rank "
                       "%d tag %d",
                       p, k, n, r->peer, r->tag);
    if (ch->ready[static_cast<std::size_t>(p)])
      return call.fail(r->comm->handle(), MPI_ERR_ARG,
                       "partition %d of the partitioned send to rank %d tag %d is already ready "
                       "in this round (MPI-4.1 4.2.3)",
                       p, r->peer, r->tag);
    ch->ready[static_cast<std::size_t>(p)] = 1;
  }
  if (ch->null_peer || parts.empty()) return MPI_SUCCESS;
  World& w = call.world;
  w.spend(w.params().send_overhead);
  if (ch->cleared())
    launch(w, ch, parts, runtime::max(w.now(), ch->clear_at()));
  else
    ch->waiting.insert(ch->waiting.end(), parts.begin(), parts.end());
  return MPI_SUCCESS;
}

int partition_arrived(ApiCall& call, MPI_Request request, int partition, int* flag) {
  int err = MPI_SUCCESS;
  if (!flag) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "flag is NULL");
  // A null or inactive request has nothing left to arrive (MPI-4.1 4.2.3; MPICH says the same).
  Request* found = request == MPI_REQUEST_NULL ? nullptr : call.world.requests().find(request);
  if (request == MPI_REQUEST_NULL || (found && found->owner == call.rank && found->partitioned &&
                                      found->kind == RequestKind::Recv && !found->active)) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  Request* r = active_partitioned(call, request, RequestKind::Recv, &err);
  if (!r) return err;
  std::shared_ptr<PartitionedChannel> ch = r->partitioned;
  if (partition < 0 || partition >= ch->recv.partitions)
    return call.fail(r->comm->handle(), MPI_ERR_ARG,
                     "partition %d not in [0,%d) of the partitioned receive from rank %d tag %d",
                     partition, ch->recv.partitions, r->peer, r->tag);
  if (ch->null_peer) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  World& w = call.world;
  SimTime at = ch->recv_arrived[static_cast<std::size_t>(partition)];
  w.charge_poll(at != SimTime::max());
  at = ch->recv_arrived[static_cast<std::size_t>(partition)];
  *flag = at != SimTime::max() && at + w.params().recv_overhead <= w.now();
  return MPI_SUCCESS;
}

std::string describe_partitioned(const Request& r) {
  const PartitionedChannel& ch = *r.partitioned;
  std::string comm = r.comm ? r.comm->name() : "?";
  if (r.kind == RequestKind::Send) {
    int ready = 0;
    for (char c : ch.ready) ready += c != 0;
    return strprintf("partitioned send to dest %d tag=%d comm=%s, %d of %d partitions ready%s",
                     r.peer, r.tag, comm.c_str(), ready, ch.send.partitions,
                     ch.cleared() ? "" : ", no matching receive started");
  }
  int arrived = 0;
  for (SimTime t : ch.recv_arrived) arrived += t != SimTime::max();
  return strprintf("partitioned receive from source %d tag=%d comm=%s, %d of %d partitions in",
                   r.peer, r.tag, comm.c_str(), arrived, ch.recv.partitions);
}

}  // namespace simmpi::mpi
