// SPDX-License-Identifier: Apache-2.0
// MPI_Probe and MPI_Iprobe: look at the first matching message whose envelope has arrived.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/probe.hpp"
#include "libsimmpi/p2p/status_error.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

struct ProbeTarget {
  int source, tag;
  const Communicator* comm;
};

std::string describe_probe(const void* p) {
  auto* t = static_cast<const ProbeTarget*>(p);
  std::string src = t->source == MPI_ANY_SOURCE ? "MPI_ANY_SOURCE" : std::to_string(t->source);
  std::string tag = t->tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(t->tag);
  return "source=" + src + " tag=" + tag + " comm=" + t->comm->name();
}

}  // namespace

void message_status(const Message& m, MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = m.source;
  status->MPI_TAG = m.tag;
  status->MPI_ERROR = MPI_SUCCESS;
  status->simmpi_cancelled = 0;
  status->simmpi_bytes = static_cast<long long>(m.bytes);
}

void proc_null_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  *status = MPI_Status{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0};
}

// Of polls (or rounds ending in a poll) of length `round` from `start`, the number (from 1) of the
// first one that ends at `t` or later, i.e. sees an envelope arriving at `t`.
static std::int64_t first_poll_ending_at_or_after(SimTime t, SimTime start, SimTime round) {
  return std::max<std::int64_t>(1, (t - start + round - SimTime::from_ps(1)).ps() / round.ps());
}

void note_probed(ApiCall& call, const Message& m) {
  if (runtime::Observation::wants_messages())
    ApiCall::note_message(call.world, ApiCall::MessageSide::Probed,
                          {m.id, m.src_world, m.tag, m.bytes, false, m.envelope_at});
}

const Message* poll_for_message(ApiCall& call, const Communicator& comm, int source, int tag) {
  World& w = call.world;
  runtime::Scheduler& sched = w.scheduler();
  const ProtocolParams& params = w.params();
  const int context = comm.context_id();
  RankState::IdleProbe& idle = w.rank(call.rank).idle_probe;
  const bool repeat = idle.end == sched.local_now() && idle.context == context &&
                      idle.source == source && idle.tag == tag;
  const SimTime cost = params.poll_cost;
  SimTime next;
  const Message* m = nullptr;
  if (repeat && params.poll_fast_forward && idle.repeats >= params.poll_fast_forward_after &&
      cost > SimTime()) {
    // A busy-polling loop: this rank's last mpi.poll_fast_forward_after probes (1,000 by default)
    // looked for the same source, tag and communicator, found nothing, and nothing took time in
    // between. Polling on would cost mpi.poll_cost per call, one event each, until the message's
    // envelope arrives; instead block until it does and return at the end of the first poll
    // that would have seen it: the same simulated times, without the events. (A bounded loop,
    // e.g. over the steps of an exchange that probes between them, does not repeat the same
    // fruitless probe that many times back to back.)
    sched.settle();
    const SimTime start = w.now();
    wait_for_message(call, comm, source, tag);
    w.spend(start + cost * first_poll_ending_at_or_after(w.now(), start, cost) - w.now());
    m = probe_unexpected(w, context, source, tag, &next);
  } else if (fruitless_until(w, comm, source, tag) > sched.local_now() + cost && cost > SimTime()) {
    // This poll ends before anything it looks for can arrive: it finds nothing whenever it
    // runs, so its time is owed like a computation's instead of slept (no switch; see
    // Scheduler::sleep_lazily), and consecutive fruitless polls cost one switch together.
    sched.sleep_lazily(cost);
  } else {
    sched.settle();
    bool found = probe_unexpected(w, context, source, tag, &next);
    w.charge_poll(found || next != SimTime::max());
    m = probe_unexpected(w, context, source, tag, &next);
  }
  const std::int64_t repeats = repeat ? idle.repeats + 1 : 1;
  idle = m ? RankState::IdleProbe{}
           : RankState::IdleProbe{context, source, tag, sched.local_now(), repeats};
  return m;
}

const Message* wait_for_message(ApiCall& call, const Communicator& comm, int source, int tag) {
  RankState& st = call.world.rank(call.rank);
  ProbeTarget target{source, tag, &comm};
  for (;;) {
    SimTime next;
    const Message* m = probe_unexpected(call.world, comm.context_id(), source, tag, &next);
    if (m) return m;
    st.block_probing(call.world.scheduler(), RankState::Probing::WakeAtArrival,
                     simmpi::runtime::WaitReason{call.name, describe_probe, &target}, next);
  }
}

// For simmpi_poll_rounds: the number of the first round (from 1) whose probe finds the first
// matching message queued for the caller, when there is one; rounds of length `round` from
// `start`, round i's probe ending at start + i * round and seeing envelopes arrived by then.
static std::optional<std::int64_t> first_round_finding(World& w, int context, int source, int tag,
                                                       SimTime start, SimTime round) {
  SimTime next;
  const Message* m = probe_unexpected(w, context, source, tag, &next);
  if (!m && next == SimTime::max()) return std::nullopt;
  return first_poll_ending_at_or_after(m ? w.now() : next, start, round);
}

}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Iprobe", ApiCall::Needs::Init, ApiCall::Settle::Later);
  P2PTarget t = check_p2p(call, Direction::Recv, nullptr, 0, MPI_BYTE, source, tag, comm);
  if (!t.ok()) return t.error;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Iprobe);
  rec.value(source).value(tag).value(comm).out(flag);
  if (source == MPI_PROC_NULL) {
    call.world.scheduler().settle();
    call.world.spend(call.world.params().poll_cost);
    *flag = 1;
    proc_null_status(status);
    return MPI_SUCCESS;
  }
  const Message* m = poll_for_message(call, *t.comm, source, tag);
  *flag = m != nullptr;
  if (m) {
    note_probed(call, *m);
    message_status(*m, status);
  }
  return MPI_SUCCESS;
}

int simmpi_poll_rounds(double seconds, long rounds, int source, int tag, MPI_Comm comm,
                       long* round) {
  // The rounds start at the caller's own time: settled below, unless they are all fruitless.
  ApiCall call("simmpi_poll_rounds", ApiCall::Needs::Init, ApiCall::Settle::Later);
  if (!round || !(seconds >= 0) || !std::isfinite(seconds))
    return call.fail(comm, MPI_ERR_ARG,
                     "simmpi_poll_rounds: seconds = %g must be finite and >= 0, round not NULL",
                     seconds);
  P2PTarget t = check_p2p(call, Direction::Recv, nullptr, 0, MPI_BYTE, source, tag, comm);
  if (!t.ok()) return t.error;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::PollRounds);
  rec.real(seconds).value(rounds).value(source).value(tag).value(comm);
  int found_round = 0;
  rec.out(&found_round);
  struct Found {
    int& out;
    long* round;
    ~Found() { out = static_cast<int>(*round); }
  } found_out{found_round, round};
  World& w = call.world;
  simmpi::runtime::Scheduler& sched = w.scheduler();
  const SimTime work = SimTime::from_seconds(seconds);
  *round = 0;
  if (rounds == 0) return MPI_SUCCESS;
  if (source == MPI_PROC_NULL) {  // the first probe finds "a message" (MPI-3.1 3.11)
    sched.sleep_lazily(work);
    *round = 1;
    return MPI_SUCCESS;
  }
  const SimTime per_round = work + w.params().poll_cost;
  RankState& st = w.rank(call.rank);
  st.idle_probe = RankState::IdleProbe{};
  if (rounds > 0 && per_round > SimTime()) {
    // When nothing the probes look for can arrive before the last one ends, every round is
    // fruitless wherever it runs: the rounds' time is owed like a computation's (no switch; see
    // Scheduler::sleep_lazily), as a fruitless MPI_Iprobe's is.
    const SimTime all = per_round * static_cast<std::int64_t>(rounds);
    if (fruitless_until(w, *t.comm, source, tag) > sched.local_now() + all) {
      sched.sleep_lazily(all);
      return MPI_SUCCESS;
    }
  }
  sched.settle();
  if (per_round == SimTime()) {  // rounds that take no time all happen now
    SimTime next;
    if (probe_unexpected(w, t.comm->context_id(), source, tag, &next) || rounds < 0) {
      note_probed(call, *wait_for_message(call, *t.comm, source, tag));
      *round = 1;
    }
    return MPI_SUCCESS;
  }
  const SimTime start = w.now();
  const SimTime end =
      rounds < 0 ? SimTime::max() : start + per_round * static_cast<std::int64_t>(rounds);
  const int context = t.comm->context_id();
  ProbeTarget target{source, tag, t.comm};
  for (;;) {
    // The first matching message stays the first: later ones queue behind it, and only this
    // rank takes messages from its queue. So once one is known, so is the round that finds it.
    const auto found = first_round_finding(w, context, source, tag, start, per_round);
    if (found && (rounds < 0 || *found <= rounds)) {
      *round = static_cast<long>(*found);
      // Up to that round's probe. (Woken by a message sent during that probe, we are already
      // past its start: possible only when mpi.poll_cost exceeds the latency.)
      const SimTime before_probe = start + per_round * (*found - 1) + work;
      w.spend(simmpi::runtime::max(before_probe, w.now()) - w.now());
      // The message whose arrival ended the polling: the first that matches, arrived or not.
      if (simmpi::runtime::Observation::wants_messages()) {
        SimTime next;
        const Message* first = nullptr;
        probe_unexpected(w, context, source, tag, &next, &first);
        if (first) note_probed(call, *first);
      }
      break;
    }
    if (found || w.now() >= end) {  // every round's probe finds nothing
      w.spend(end - w.now());
      break;
    }
    // A new unexpected message wakes us at once (spuriously if it does not match), before its
    // envelope arrives: the round whose probe sees it is then known, and we stop before it.
    st.block_probing(sched, RankState::Probing::WakeAtSend,
                     simmpi::runtime::WaitReason{call.name, describe_probe, &target}, end);
  }
  return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Probe");
  P2PTarget t = check_p2p(call, Direction::Recv, nullptr, 0, MPI_BYTE, source, tag, comm);
  if (!t.ok()) return t.error;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Probe);
  rec.value(source).value(tag).value(comm);
  MPI_Status st;
  rec.out(&st.MPI_SOURCE).out(&st.MPI_TAG);
  if (source == MPI_PROC_NULL)
    proc_null_status(&st);
  else {
    const Message& m = *wait_for_message(call, *t.comm, source, tag);
    note_probed(call, m);
    message_status(m, &st);
  }
  if (status != MPI_STATUS_IGNORE) *status = st;
  return MPI_SUCCESS;
}

}  // extern "C"
