// SPDX-License-Identifier: Apache-2.0
// Matching queues, eager and rendezvous protocols, completion and waiting.
#include "libsimmpi/p2p/transport.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/tool_events.hpp"
#include "libsimmpi/p2p/buffered_send.hpp"
#include "libsimmpi/p2p/partitioned.hpp"
#include "libsimmpi/p2p/typed_copy.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

// A blocked rank's WaitReason: what the request it waits for is.
std::string describe_waited(const void* request) {
  return describe_request(*static_cast<const Request*>(request));
}

bool matches(const Request& r, const Message& m) {
  return r.context == m.context && (r.peer == MPI_ANY_SOURCE || r.peer == m.source) &&
         (r.tag == MPI_ANY_TAG || r.tag == m.tag);
}

// The buffer of request `r` (its data is in its owner's memory).
TypedBuffer buffer_of(const Request* r) {
  return TypedBuffer{r->owner, r->buf, r->count, r->type.get()};
}

// Moves up to the receive's capacity of packed bytes into its buffer.
void unpack_into(World& w, Request* r, const char* src, std::uint64_t bytes) {
  unpack_typed(w, src, bytes, buffer_of(r));
}

// Copies a message's payload straight from the sender's buffer into the receive's.
void copy_from_sender(World& w, const TypedBuffer& from, Request* r) {
  copy_typed(w, from, buffer_of(r), std::min(from.bytes(), r->capacity_bytes()));
}
void copy_from_sender(World& w, int src_world, const Request* s, Request* r) {
  TypedBuffer from = buffer_of(s);
  from.rank = src_world;
  copy_from_sender(w, from, r);
}

void eager_arrived(void* msg, std::uint64_t, SimTime arrival);
void rendezvous_start(void* msg, std::uint64_t);
void rendezvous_delivered(void* msg, std::uint64_t, SimTime arrival);

// Message `m`'s data is in receive `r` by `data_at`: the receive completes after its overhead,
// and the message is done with.
void finish_receive(World& w, Message* m, Request* r, SimTime data_at) {
  r->msg = nullptr;
  complete_request(w, r, data_at + w.params().recv_overhead, w.params().recv_overhead);
  w.messages().release(m);
}

// Binds message `m` to receive `r` at the current time; both are out of their queues.
void match(World& w, Message* m, Request* r) {
  m->recv = r;
  r->msg = m;
  r->message_id = m->id;
  r->status.MPI_SOURCE = m->source;
  r->status.MPI_TAG = m->tag;
  r->message_bytes = m->bytes;
  r->status.simmpi_bytes = static_cast<long long>(std::min(m->bytes, r->capacity_bytes()));
  r->status.MPI_ERROR = m->bytes > r->capacity_bytes() ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  if (m->protocol == Protocol::Rendezvous) {
    if (runtime::Observation::wants_messages())
      runtime::Observation::rendezvous_matched(m->id, w.now());
    SimTime clear_to_send = runtime::max(m->envelope_at, w.now());
    SimTime data_start = clear_to_send + w.platform().latency(m->dst_world, m->src_world);
    w.engine().schedule(data_start, runtime::Action{&rendezvous_start, m, 0});
    return;
  }
  if (m->payload) {
    unpack_into(w, r, m->payload.get(), m->bytes);
    m->payload.reset();
  }
  if (m->data_at != SimTime::max())  // the payload is already in
    finish_receive(w, m, r, runtime::max(m->data_at, w.now()));
}

// The network tells a message's arrival as soon as it is known (hardware::ArrivalNotice), which
// may be before `arrival`: the requests are completed with their times to come, and the data is
// copied into the receive now, which the receiver may not read before its request completes.
void eager_arrived(void* msg, std::uint64_t, SimTime arrival) {
  auto* m = static_cast<Message*>(msg);
  World& w = World::get();
  m->data_at = arrival;
  release_bsend(w, *m);  // the data has left the sender: its buffer space is free
  if (Request* r = m->recv) finish_receive(w, m, r, arrival);
}

void rendezvous_start(void* msg, std::uint64_t) {
  auto* m = static_cast<Message*>(msg);
  World::get().platform().transfer(m->src_world, m->dst_world, m->bytes,
                                   hardware::ArrivalNotice{&rendezvous_delivered, m, 0});
}

void rendezvous_delivered(void* msg, std::uint64_t, SimTime arrival) {
  auto* m = static_cast<Message*>(msg);
  World& w = World::get();
  Request* r = m->recv;
  if (m->payload)
    unpack_into(w, r, m->payload.get(), m->bytes);
  else
    copy_from_sender(w, m->src_world, m->send, r);
  release_bsend(w, *m);
  if (m->send) complete_request(w, m->send, arrival);
  finish_receive(w, m, r, arrival);
}

}  // namespace

void complete_request(World& w, Request* r, SimTime t, SimTime own_tail) {
  r->complete_at = t;
  r->own_tail = own_tail;
  if (r->freed) {
    w.requests().release(r);
    return;
  }
  if (WaitGroup* g = r->wait_group) {
    r->wait_group = nullptr;
    g->note(t, own_tail);
    if (--g->unknown > 0) return;  // the wait goes on: nothing for the waiter to do yet
    t = g->latest;
    own_tail = g->latest_tail;
  }
  w.scheduler().wake(w.scheduler().process(r->waiter), t, own_tail);
}

void prepare_send(World& w, Request* s, Communicator& comm, Channel channel, int dest, int tag,
                  const void* buf, std::int64_t count, const Datatype& type, SendMode mode) {
  s->kind = RequestKind::Send;
  s->mode = mode;
  s->owner = w.current_rank();
  s->waiter = w.scheduler().current()->id();
  s->buf = const_cast<void*>(buf);
  s->count = count;
  s->type = &type;
  s->comm = &comm;
  comm.add_request();
  // On an intercommunicator `dest` is a rank of the other group, which receives on its context.
  s->context = comm.remote().context_id() + (channel == Channel::Collective);
  s->internal = channel == Channel::Collective;  // before post_send tells the observers
  s->peer = dest;
  s->tag = tag;
}

namespace {

// What the scheduler does for a rank that posts `r` and then waits for it (settle_then): `post`
// it, and leave the rank blocked on `r` if it would block.
runtime::WakeAction waiter_action(World& w, bool (*post)(void*), Request* r) {
  return runtime::WakeAction{
      post, r, runtime::WaitReason{w.scheduler().current()->current_call, describe_waited, r}};
}

// Whether a send waits for its receive (MPI's synchronous mode, or too large to send eagerly).
bool uses_rendezvous(World& w, const Request* s) {
  return s->mode == SendMode::Synchronous ||
         (s->mode != SendMode::Buffered && s->capacity_bytes() > w.params().eager_threshold);
}

// A message of `bytes` from world rank `me` to rank `dest` of `comm` on `context`, its envelope
// leaving now; `dst` receives the destination's state.
Message* new_message(World& w, int me, const Communicator& comm, int context, int dest, int tag,
                     std::uint64_t bytes, std::uint64_t id, Protocol protocol) {
  Message* m = w.messages().create();
  m->id = id;
  m->context = context;
  m->source = comm.comm_rank(me);
  m->tag = tag;
  m->src_world = me;
  m->dst_world = comm.remote().world_rank(dest);
  m->bytes = bytes;
  m->envelope_at = w.now() + w.platform().latency(me, m->dst_world);
  m->protocol = protocol;
  return m;
}

// The receive posted at m's destination that m matches, out of the posted queue; nullptr if
// none.
Request* take_posted(RankState& dst, const Message& m) {
  Request* r = dst.posted.find([&](const Request& x) { return matches(x, m); });
  if (r) dst.posted.remove(r);
  return r;
}

// The end of every send's posting, its payload copied or kept: matches `m` to `r` (taken from
// the posted queue) or queues it as unexpected at its destination `dst`, waking its probers and
// raising the MPI_T event of an application's (not a collective's) message.
void deliver(World& w, Message* m, Request* r, RankState& dst, bool from_application) {
  if (r) {
    match(w, m, r);
    return;
  }
  dst.unexpected.push_back(m);
  if (from_application && is_tool_event_wanted(ToolEvent::UnexpectedMessage))
    raise_tool_event(w, m->dst_world, ToolEvent::UnexpectedMessage, m->envelope_at,
                     {m->source, m->tag, static_cast<std::int64_t>(m->bytes)});
  for (const RankState::Prober& q : dst.probing)
    w.scheduler().wake(w.scheduler().process(q.process),
                       q.how == RankState::Probing::WakeAtSend ? w.now() : m->envelope_at);
}

// Posts the send at the current time: the caller's time has passed (post_send).
void post_send_now(World& w, Request* s) {
  int me = s->owner;
  s->complete_at = SimTime::max();
  s->status = MPI_Status{};
  SendMode mode = s->mode;
  bool rendezvous = uses_rendezvous(w, s);
  Message* m = new_message(w, me, *s->comm, s->context, s->peer, s->tag, s->capacity_bytes(),
                           s->message_id, rendezvous ? Protocol::Rendezvous : Protocol::Eager);
  RankState& dst = w.rank(m->dst_world);
  Request* r = take_posted(dst, *m);

  if (mode == SendMode::Buffered) {
    // The data is copied out at once: the send buffer is free as soon as the call returns.
    m->payload.reset(new char[m->bytes]);
    pack_typed(w, buffer_of(s), m->bytes, m->payload.get());
    m->bsend_charge = m->bytes + MPI_BSEND_OVERHEAD;  // reserved by MPI_Bsend (reserve_bsend)
    m->bsend_buffer = bsend_buffer_for(w, m->src_world, s->comm->handle());
  } else if (rendezvous) {
    m->send = s;
  } else if (s->payload) {  // copied at the call; match() unpacks it into a matching receive
    m->payload = std::move(s->payload);
  } else if (r) {
    copy_from_sender(w, me, s, r);
  } else if (!wholly_folded(buffer_of(s),
                            m->bytes)) {  // folded data is meaningless: nothing to keep
    m->payload.reset(new char[m->bytes]);
    // Through RankMemory: a send posted ahead (post_ahead) is made with no rank's globals live.
    pack_typed(w, buffer_of(s), m->bytes, m->payload.get());
  }
  if (!rendezvous)
    w.platform().transfer(me, m->dst_world, m->bytes,
                          hardware::ArrivalNotice{&eager_arrived, m, 0});
  if (!m->send) s->complete_at = w.now();
  // An application's message: not a collective's, whose messages carry the context after its
  // communicator's (Channel::Collective), nor a neighbourhood collective's (internal).
  deliver(w, m, r, dst, !s->internal && m->context == s->comm->remote().context_id());
}

// A blocking rendezvous send's posting, done by the scheduler when the sender's overhead ends
// (no rank's globals need be live: a rendezvous send reads its buffer only when the data moves,
// through RankMemory). The sender stays blocked, as its wait would leave it, until the send
// completes; true (resume it now) only if it is complete already.
bool post_send_for_waiter(void* request) {
  auto* s = static_cast<Request*>(request);
  World& w = World::get();
  post_send_now(w, s);
  return s->is_complete(w.now());
}

// A nonblocking send's posting, made by the scheduler while the sender runs on (post_ahead).
void post_send_ahead(void* request, std::uint64_t) {
  post_send_now(World::get(), static_cast<Request*>(request));
}

// The same for a blocking eager send, whose caller has returned: nobody waits for its request.
void post_blocking_send_ahead(void* request, std::uint64_t) {
  auto* s = static_cast<Request*>(request);
  World& w = World::get();
  post_send_now(w, s);
  w.requests().release(s);
}

// A blocking eager send completes when posted, so its caller may go on at once, with its data
// copied now: the buffer is the caller's again when the call returns. Its request is no longer
// the caller's.
void post_blocking_send_ahead_with_copy(World& w, Request* s) {
  if (!wholly_folded(buffer_of(s), s->capacity_bytes())) {
    s->payload.reset(new char[s->capacity_bytes()]);
    pack(s->buf, s->count, *s->type, s->payload.get());
  }
  w.scheduler().post_ahead(runtime::Action{&post_blocking_send_ahead, s, 0});
}

}  // namespace

bool post_send(World& w, Request* s, bool then_wait) {
  // Time the caller owes (MPI_Send and friends do not settle first) and the overhead, in one
  // sleep: the message leaves at the same time, with one switch less.
  s->message_id = w.next_message_id();
  runtime::Scheduler& sched = w.scheduler();
  sched.sleep_lazily(w.params().send_overhead);
  if (runtime::Observation::wants_messages())
    ApiCall::note_message(
        w, ApiCall::MessageSide::Sent,
        {s->message_id, s->comm->remote().world_rank(s->peer), s->tag, s->capacity_bytes(),
         s->internal, sched.local_now(), uses_rendezvous(w, s)});
  if (s->mode == SendMode::Buffered) {  // copies its data out now, counted in the attached buffer
    sched.settle();
  } else if (then_wait && uses_rendezvous(w, s)) {
    if (sched.settle_then(waiter_action(w, &post_send_for_waiter, s))) return true;
  } else if (!then_wait) {
    // A nonblocking send: the caller need not wait for its overhead to end.
    s->complete_at = SimTime::max();  // pending until posted
    if (sched.post_ahead(runtime::Action{&post_send_ahead, s, 0})) return true;
  } else if (sched.would_post_ahead()) {
    post_blocking_send_ahead_with_copy(w, s);
    return false;
  } else {
    sched.settle();
  }
  post_send_now(w, s);
  return true;
}

Request* start_send(World& w, Communicator& comm, Channel channel, int dest, int tag,
                    const void* buf, std::int64_t count, const Datatype& type, SendMode mode,
                    bool then_wait) {
  Request* s = w.requests().create();
  prepare_send(w, s, comm, channel, dest, tag, buf, count, type, mode);
  return post_send(w, s, then_wait) ? s : nullptr;
}

// A blocking send that completes when posted (eager, standard or ready mode) and is posted now
// needs no request: nothing waits for it, nothing refers to it, and its message reads the
// caller's buffer at once. What start_send + wait_request + retire_request do for it, in the
// same order (the message's id, the overhead, the observers' note, the settle, the posting),
// less the request's handle, its fields and its release. A send that would be posted ahead
// (something else is due before its overhead ends) keeps its request, which carries it to the
// post (see SendAhead).
void send_blocking(World& w, Communicator& comm, Channel channel, int dest, int tag,
                   const void* buf, std::int64_t count, const Datatype& type, SendMode mode,
                   SendAhead ahead) {
  const std::uint64_t bytes = type.size * static_cast<std::uint64_t>(count);
  if (mode == SendMode::Buffered || mode == SendMode::Synchronous ||
      bytes > w.params().eager_threshold) {
    if (Request* s = start_send(w, comm, channel, dest, tag, buf, count, type, mode, true)) {
      wait_request(w, *s);
      retire_request(w, s, MPI_STATUS_IGNORE);
    }
    return;
  }
  const std::uint64_t id = w.next_message_id();
  runtime::Scheduler& sched = w.scheduler();
  sched.sleep_lazily(w.params().send_overhead);
  if (runtime::Observation::wants_messages())  // a collective's own message on its channel
    ApiCall::note_message(w, ApiCall::MessageSide::Sent,
                          {id, comm.remote().world_rank(dest), tag, bytes,
                           channel == Channel::Collective, sched.local_now(), false});
  if (sched.would_post_ahead()) {
    Request* s = w.requests().create();
    prepare_send(w, s, comm, channel, dest, tag, buf, count, type, mode);
    s->message_id = id;
    switch (ahead) {
      case SendAhead::CopyData:
        post_blocking_send_ahead_with_copy(w, s);
        return;
      case SendAhead::CallerWaits:  // the buffer is read when the post is made
        sched.post_ahead(runtime::Action{&post_blocking_send_ahead, s, 0});
        return;
      case SendAhead::Wait:  // as a nonblocking send and its wait
        s->complete_at = SimTime::max();
        sched.post_ahead(runtime::Action{&post_send_ahead, s, 0});
        wait_request(w, *s);
        retire_request(w, s, MPI_STATUS_IGNORE);
        return;
    }
  }
  sched.settle();
  const int me = w.current_rank();
  Message* m =
      new_message(w, me, comm, comm.remote().context_id() + (channel == Channel::Collective), dest,
                  tag, bytes, id, Protocol::Eager);
  RankState& dst = w.rank(m->dst_world);
  Request* r = take_posted(dst, *m);
  const TypedBuffer from{me, const_cast<void*>(buf), count, &type};
  if (r) {
    copy_from_sender(w, from, r);
  } else if (!wholly_folded(from, bytes)) {  // folded data is meaningless: nothing to keep
    m->payload.reset(new char[bytes]);
    pack_typed(w, from, bytes, m->payload.get());
  }
  w.platform().transfer(me, m->dst_world, bytes, hardware::ArrivalNotice{&eager_arrived, m, 0});
  deliver(w, m, r, dst, channel == Channel::User);
}

void prepare_recv(World& w, Request* r, Communicator& comm, Channel channel, int source, int tag,
                  void* buf, std::int64_t count, const Datatype& type) {
  r->kind = RequestKind::Recv;
  r->owner = w.current_rank();
  r->waiter = w.scheduler().current()->id();
  r->buf = buf;
  r->count = count;
  r->type = &type;
  r->comm = &comm;
  comm.add_request();
  r->context = comm.context_id() + (channel == Channel::Collective);
  r->peer = source;
  r->tag = tag;
}

void post_recv(World& w, Request* r) {
  r->complete_at = SimTime::max();
  r->status = MPI_Status{};
  r->message_bytes = 0;
  RankState& st = w.rank(r->owner);
  Message* m = st.unexpected.find([&](const Message& x) { return matches(*r, x); });
  if (m) {
    st.unexpected.remove(m);
    match(w, m, r);
  } else {
    st.posted.push_back(r);
  }
}

namespace {

// A blocking receive's posting, done by the scheduler when the receiver's owed time ends (its
// data is copied through RankMemory, so no rank's globals need be live). Resumes the receiver
// now unless nothing has arrived for it yet, when it stays blocked as its wait would leave it.
bool post_recv_for_waiter(void* request) {
  auto* r = static_cast<Request*>(request);
  post_recv(World::get(), r);
  return r->complete_at != SimTime::max();
}

// A nonblocking receive's posting, made by the scheduler while the receiver runs on.
void post_recv_ahead(void* request, std::uint64_t) {
  post_recv(World::get(), static_cast<Request*>(request));
}

}  // namespace

namespace {

// Posts receive `r`, prepared, after the caller's owed time, by the scheduler when the caller
// would then block at once.
void post_recv_then_wait(World& w, Request* r) {
  if (!w.scheduler().settle_then(waiter_action(w, &post_recv_for_waiter, r))) post_recv(w, r);
}

}  // namespace

Request* start_recv(World& w, Communicator& comm, Channel channel, int source, int tag, void* buf,
                    std::int64_t count, const Datatype& type, bool then_wait) {
  Request* r = w.requests().create();
  prepare_recv(w, r, comm, channel, source, tag, buf, count, type);
  runtime::Scheduler& sched = w.scheduler();
  if (then_wait) {
    post_recv_then_wait(w, r);
    return r;
  } else {
    r->complete_at = SimTime::max();  // pending until posted
    if (sched.post_ahead(runtime::Action{&post_recv_ahead, r, 0})) return r;
  }
  post_recv(w, r);
  return r;
}

// A blocking receive's request lives on its caller's stack, outside the request table: no
// handle names it, and nothing refers to it once it is complete (its message lets go of it in
// finish_receive, before the completion time its caller wakes at), so the table's slot and the
// pool's recycling are work for nothing. retire_request knows it by its null handle.
void recv_blocking(World& w, Request& r, Communicator& comm, Channel channel, int source, int tag,
                   void* buf, std::int64_t count, const Datatype& type) {
  prepare_recv(w, &r, comm, channel, source, tag, buf, count, type);
  post_recv_then_wait(w, &r);
  wait_request(w, r);
}

Request* start_matched_recv(World& w, Communicator& comm, Message* m, void* buf, std::int64_t count,
                            const Datatype& type) {
  Request* r = w.requests().create();
  prepare_recv(w, r, comm, Channel::User, m->source, m->tag, buf, count, type);
  r->complete_at = SimTime::max();
  match(w, m, r);
  return r;
}

Request* null_peer_request(World& w, RequestKind kind) {
  Request* r = w.requests().create();
  r->kind = kind;
  r->owner = w.current_rank();
  r->waiter = w.scheduler().current()->id();
  r->status.MPI_SOURCE = MPI_PROC_NULL;
  r->status.MPI_TAG = MPI_ANY_TAG;
  r->complete_at = w.now();
  return r;
}

namespace {

// The wait's start for a single request (as start_wait_all below, with no group: the request's
// completion wakes the waiter itself, complete_request): resume the waiter only if its
// completion time is known.
bool start_wait_one(void* request) {
  return static_cast<const Request*>(request)->complete_at != SimTime::max();
}

}  // namespace

// The same as wait_all_requests of one request, which every blocking send and receive makes,
// without counting a group.
void wait_request(World& w, Request& r) {
  runtime::Scheduler& s = w.scheduler();
  const runtime::WaitReason reason{s.current()->current_call, describe_waited, &r};
  s.settle_then(runtime::WakeAction{&start_wait_one, &r, reason});
  for (;;) {
    if (r.complete_at != SimTime::max()) {
      if (r.complete_at <= w.now()) return;
      s.wait_until(r.complete_at, r.own_tail);
      continue;
    }
    s.block(reason);
  }
}

namespace {

// A wait for all of `n` requests: the group that counts those whose completion is unknown.
struct AllWait {
  Request* const* reqs;
  int n;
  WaitGroup g;
  const Request* first_unknown = nullptr;  // for the deadlock report
  bool blocked = false;                    // started by the scheduler, which left it blocked

  // Counts the requests afresh at `now`: the latest known completion, and the requests not
  // complete whose completion is unknown, tagged with the group.
  void count(SimTime now) {
    g = WaitGroup{};
    g.latest = now;
    first_unknown = nullptr;
    for (int i = 0; i < n; ++i) {
      Request* r = reqs[i];
      if (!r || r->is_complete(now)) continue;
      if (r->complete_at != SimTime::max()) {
        g.note(r->complete_at, r->own_tail);
      } else if (r->wait_group != &g) {  // a request listed twice counts once
        r->wait_group = &g;
        ++g.unknown;
        if (!first_unknown) first_unknown = r;
      }
    }
  }
  void untag() {
    for (int i = 0; i < n; ++i)
      if (reqs[i]) reqs[i]->wait_group = nullptr;  // the group lives on the waiter's stack only
  }
};

std::string describe_all_wait(const void* wait) {
  return describe_request(*static_cast<const AllWait*>(wait)->first_unknown);
}

// The wait's start, done by the scheduler when the waiter's owed time ends (and its posts
// made ahead are made): the waiter is resumed only if no completion is unknown; else it stays
// blocked until the last one is known (complete_request wakes it).
bool start_wait_all(void* wait) {
  auto* a = static_cast<AllWait*>(wait);
  a->count(World::get().now());
  a->blocked = a->g.unknown > 0;
  return !a->blocked;
}

}  // namespace

void wait_all_requests(World& w, Request* const* reqs, int n) {
  runtime::Scheduler& s = w.scheduler();
  AllWait a{reqs, n, {}};
  const runtime::WaitReason reason{s.current()->current_call, describe_all_wait, &a};
  // The caller's owed time and posts first; when they end in an event of their own, that event
  // starts the wait, with no switch to the caller unless it can go on.
  const bool started = s.settle_then(runtime::WakeAction{&start_wait_all, &a, reason});
  if (!started) a.count(w.now());
  bool woken = started && a.blocked;
  for (;;) {
    if (woken) {
      a.untag();
      a.count(w.now());
      woken = false;
    }
    if (a.g.unknown == 0) {
      if (a.g.latest == w.now()) return;
      s.wait_until(a.g.latest, a.g.latest_tail);
      a.count(w.now());
      continue;
    }
    s.block(reason);
    woken = true;
  }
}

void wait_any_request(World& w, Request* const* reqs, int n) {
  struct Pending {
    Request* const* reqs;
    int n;
  } pending{reqs, n};
  auto describe = [](const void* p) {
    auto* pd = static_cast<const Pending*>(p);
    std::string s;
    int shown = 0;
    for (int i = 0; i < pd->n; ++i) {
      if (!pd->reqs[i]) continue;
      if (shown++ == 4) return s + "; ...";
      s += (s.empty() ? "" : "; ") + strprintf("[%d] ", i) + describe_request(*pd->reqs[i]);
    }
    return s;
  };
  runtime::Scheduler& s = w.scheduler();
  s.settle();
  for (;;) {
    SimTime earliest = SimTime::max();
    for (int i = 0; i < n; ++i) {
      if (!reqs[i]) continue;
      if (reqs[i]->is_complete(w.now())) return;
      earliest = std::min(earliest, reqs[i]->complete_at);
    }
    s.block(runtime::WaitReason{s.current()->current_call, describe, &pending}, earliest);
  }
}

void note_received(World& w, const Request& r) {
  if (r.kind == RequestKind::Recv && r.message_id && runtime::Observation::wants_messages())
    ApiCall::note_message(
        w, ApiCall::MessageSide::Received,
        {r.message_id, r.comm->remote().world_rank(r.status.MPI_SOURCE), r.status.MPI_TAG,
         r.message_bytes, r.internal, r.complete_at - r.own_tail});
}

void retire_request(World& w, Request* r, MPI_Status* status) {
  note_received(w, *r);
  if (status != MPI_STATUS_IGNORE) *status = r->status;
  if (r->handle != MPI_REQUEST_NULL) {
    w.requests().release(r);
  } else if (r->comm && r->comm->drop_request()) {  // on its caller's stack (recv_blocking)
    w.release_comm(*r->comm);
    r->comm = nullptr;
  }
}

bool cancel_recv(World& w, Request& r) {
  if (r.kind != RequestKind::Recv || r.partitioned || r.msg || r.complete_at != SimTime::max())
    return false;
  RankState& st = w.rank(r.owner);
  st.posted.remove(&r);
  r.status.simmpi_cancelled = 1;
  r.status.simmpi_bytes = 0;
  complete_request(w, &r, w.now());
  return true;
}

const Message* probe_unexpected(World& w, int context, int source, int tag, SimTime* next_arrival,
                                const Message** first_match) {
  *next_arrival = SimTime::max();
  RankState& st = w.rank(w.current_rank());
  Request pattern;
  pattern.context = context;
  pattern.peer = source;
  pattern.tag = tag;
  const Message* m = st.unexpected.find([&](const Message& x) { return matches(pattern, x); });
  if (first_match) *first_match = m;
  if (!m) return nullptr;
  // Only the first match counts, so a receive after the probe gets the probed message.
  if (m->envelope_at <= w.now()) return m;
  *next_arrival = m->envelope_at;
  return nullptr;
}

SimTime fruitless_until(World& w, const Communicator& comm, int source, int tag) {
  SimTime next;
  if (probe_unexpected(w, comm.context_id(), source, tag, &next)) return w.now();
  if (next != SimTime::max()) return next;
  if (source == MPI_ANY_SOURCE) return w.now() + w.min_message_delay();
  const int sender = comm.remote().world_rank(source);
  SimTime acts = w.scheduler().earliest_action(w.scheduler().process(sender));
  for (int thread : w.rank(sender).threads)  // any of the sender's threads may send
    acts = runtime::min(acts, w.scheduler().earliest_action(w.scheduler().process(thread)));
  // A finished sender sends nothing, but polling for it must still reach the deadlock check.
  if (acts == SimTime::max()) return w.now() + w.min_message_delay();
  return acts + w.platform().latency(sender, w.current_rank());
}

Message* claim_unexpected(World& w, const Message* m) {
  auto* owned = const_cast<Message*>(m);
  w.rank(m->dst_world).unexpected.remove(owned);
  return owned;
}

std::string describe_request(const Request& r) {
  std::string comm = r.comm ? r.comm->name() : "?";
  if (r.kind == RequestKind::Collective)
    return strprintf("waiting for its %s %s on %s", r.persistent ? "persistent" : "nonblocking",
                     r.call, comm.c_str());
  if (r.kind == RequestKind::Generalized)
    return strprintf("waiting for MPI_Grequest_complete of generalized request 0x%08x",
                     static_cast<unsigned>(r.handle));
  if (r.partitioned) return describe_partitioned(r);
  if (r.kind == RequestKind::Send && !r.comm && r.call)  // an iflush (buffered_send.hpp)
    return strprintf("waiting for %s: buffered messages have not all left the buffer", r.call);
  const Communicator* to = r.comm && r.kind == RequestKind::Send ? &r.comm->remote() : r.comm;
  bool collective = to && r.context != to->context_id();
  std::string peer = r.peer == MPI_ANY_SOURCE ? "MPI_ANY_SOURCE" : std::to_string(r.peer);
  std::string tag = r.tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(r.tag);
  if (collective)
    return strprintf("waiting for a collective message %s rank %s of %s",
                     r.kind == RequestKind::Recv ? "from" : "to", peer.c_str(), comm.c_str());
  if (r.kind == RequestKind::Recv)
    return strprintf("receive from source=%s tag=%s comm=%s", peer.c_str(), tag.c_str(),
                     comm.c_str());
  return strprintf("send to dest=%s tag=%s comm=%s (waiting for a matching receive)", peer.c_str(),
                   tag.c_str(), comm.c_str());
}

}  // namespace simmpi::mpi
