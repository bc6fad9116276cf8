// SPDX-License-Identifier: Apache-2.0
// What every MPI entry point does first and last: it names itself (crash and deadlock reports
// say which call a rank was in), checks that MPI is initialized and that the calling thread may
// call MPI at the rank's thread level, and reports misuse through the communicator's error
// handler as "[t=0.000123000000 s r3] MPI_Send: dest=9 not in [0,8)".
#pragma once

#include <string>
#include <vector>

#include "libsimmpi/core/world.hpp"
#include "mpi.h"
#include "runtime/observe/observation.hpp"

namespace simmpi::mpi {

// What an observed call collects for the run's observers (runtime/observe): one for each program
// process while someone listens, kept from its first observed call to its end
// (runtime::Process::observed_call points to it), so that a call nobody observes carries one
// null pointer instead of these members. A program thread's goes back to a list of spares when
// the thread ends (release_observed_call): its process may be reused by another thread, or by
// the library's auxiliary processes, which nothing observes.
struct ObservedCall {
  ObservedCall() {
    facts.comm_name = &comm_name;
    facts.sent = &sent;
    facts.received = &received;
    facts.probed = &probed;
    facts.record = &record;
    facts.records_after = &records_after;
  }
  ObservedCall(const ObservedCall&) = delete;
  ObservedCall& operator=(const ObservedCall&) = delete;

  // What the observers are told, filled in as the call goes; its lists are the members below.
  runtime::CallFacts facts;
  runtime::SimTime blocked_at_begin;
  int payloads = 0;  // ApiCall::note_payload calls so far
  // The name of the call's communicator, copied when ApiCall::comm() resolves it (the call may
  // free or rename the communicator). Kept from call to call with the name's stamp
  // (Communicator::name_stamp): a call on the communicator of the call before copies nothing.
  std::string comm_name;
  std::uint64_t comm_name_stamp = 0;
  std::vector<runtime::MessageLink> sent, received, probed;
  // The call's record for the call trace (CallRecord): its fields (its kind is
  // facts.record_kind, -1: none), and the outputs still to read (each `v`, or the `*n` values at
  // `v`) with their positions in it.
  std::vector<std::int64_t> record;
  struct RecordOut {
    std::size_t at;
    const int* v;
    const int* n;  // nullptr: a single value
  };
  std::vector<RecordOut> record_outs;
  // Whole records to write after the call's own: each its kind, its number of fields, the fields.
  std::vector<std::int64_t> records_after;
  // Empties the lists an observer reads (their capacity stays).
  void clear_lists();
  ObservedCall* next_spare = nullptr;  // in the list of those not in use
};

class ApiCall {
 public:
  enum class Needs { Init, Nothing };
  // Settle::Now lets the rank's lazily charged time pass before the call (see
  // Scheduler::sleep_lazily); Settle::Later leaves it to the call (MPI_Iprobe's polling), after
  // the rank's posts made ahead (Scheduler::post_ahead); Settle::Ahead leaves both to the call
  // (sends and receives, which may post ahead in turn, and waits, see wait_all_requests).
  enum class Settle { Now, Later, Ahead };
  explicit ApiCall(const char* name, Needs needs = Needs::Init, Settle settle = Settle::Now);
  ~ApiCall();
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

  World& world;
  const int rank;  // world rank of the caller
  const char* const name;

  // Raises error class `cls` on `comm` (MPI_COMM_WORLD's handler if `comm` is not valid). Under
  // MPI_ERRORS_ARE_FATAL ends the run with the message; under MPI_ERRORS_RETURN returns `cls`.
  int fail(MPI_Comm comm, int cls, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
  // What fail() does once the handler is known, for objects other than communicators (windows):
  // under MPI_ERRORS_RETURN returns `cls`; a user handler `fn` is called with `object` and the
  // code, then `cls` is returned; under MPI_ERRORS_ARE_FATAL ends the run with `detail`.
  int raise(MPI_Errhandler handler, MPI_Comm_errhandler_function* fn, int object, int cls,
            const char* detail);

  // The caller's view of `h`, or nullptr after raising MPI_ERR_COMM. (Inline for a valid
  // communicator in a call nobody observes: every send and receive resolves one.)
  Communicator* comm(MPI_Comm h) {
    Communicator* c = world.find_comm(h, rank);
    if (!c) return comm_failed(h);
    if (observed_ && observed_->facts.comm_context < 0) note_comm(*c);
    return c;
  }
  // The committed datatype `h`, or nullptr after raising MPI_ERR_TYPE on `comm`. (Inline for
  // predefined types, which are always committed.)
  const Datatype* datatype(MPI_Datatype h, MPI_Comm comm) {
    if (const Datatype* t = find_predefined_datatype(h)) return t;
    return derived_datatype(h, comm);
  }

  // What the call moves, for the run's observers (runtime/observe): `bytes` of payload (-1: none
  // known) to or from world rank `peer` (-1: none, or the root's of a collective) with `tag`
  // (-1: none). A call that moves several payloads (MPI_Sendrecv) notes each; the bytes add up
  // and the first peer stays. The communicator is the first one comm() resolved.
  void note_payload(std::int64_t bytes, int peer, int tag = -1) {
    if (!observed_) return;
    runtime::CallFacts& f = observed_->facts;
    if (observed_->payloads++ == 0) {  // the facts hold -1s: the first note is a copy
      f.bytes = bytes;
      f.peer = peer;
      f.tag = tag;
      return;
    }
    if (bytes >= 0) f.bytes = (f.bytes < 0 ? 0 : f.bytes) + bytes;
    if (f.peer < 0) f.peer = peer;
    if (f.tag < 0) f.tag = tag;
  }

  // Where this call describes itself for the call trace (see CallRecord) when it is the
  // outermost call of a program process and an observer wants records; nullptr otherwise.
  ObservedCall* record_state() const {
    return owns_observed_ && runtime::Observation::wants_records() ? observed_ : nullptr;
  }

  // A message the calling process sends or whose receive it completes, for the observed call it
  // is in (nothing when no one listens).
  enum class MessageSide { Sent, Received, Probed };
  static void note_message(World& w, MessageSide side, const runtime::MessageLink& m);
  // Program thread `p` ends (inside a call, when cancelled there): its ObservedCall, if it has
  // one, goes back to the spares.
  static void release_observed_call(runtime::Process& p);

 private:
  // A thread other than the one that initialized MPI calling MPI under MPI_THREAD_SINGLE or
  // _FUNNELED: raises MPI_ERR_OTHER on
  // MPI_COMM_WORLD (the call's own communicator is not known yet). Under MPI_ERRORS_RETURN or a
  // user handler that returns, the call then goes on: fibers make it safe.
  void check_thread_level();

  // Starts the observation of a program process's outermost call.
  void begin_observed(runtime::Process& p);
  // The ObservedCall of a program process's first observed call.
  ObservedCall* take_observed_call(runtime::Process& p);
  // Tells the observers what the call did; from the destructor of an observed call.
  void notify_observers();
  // comm() for an invalid handle: raises MPI_ERR_COMM, returns nullptr.
  Communicator* comm_failed(MPI_Comm h);
  // The first communicator an observed call resolves is the call's (see ObservedCall).
  void note_comm(const Communicator& c) {
    runtime::CallFacts& f = observed_->facts;
    f.comm_context = c.context_id();
    f.comm_size = c.size();
    f.comm_leader = c.first_world_rank();
    if (observed_->comm_name_stamp != c.name_stamp()) copy_comm_name(c);
  }
  void copy_comm_name(const Communicator& c);
  // datatype() for anything but a predefined type.
  const Datatype* derived_datatype(MPI_Datatype h, MPI_Comm comm);

  const char* saved_call_;
  // Where facts noted by this call go: its own ObservedCall, the one of the outermost call it is
  // nested in, or nullptr when no one listens.
  ObservedCall* observed_ = nullptr;
  bool owns_observed_ = false;  // the outermost observed call: it tells the observers
};

const char* error_class_name(int cls);
const char* error_class_text(int cls);

}  // namespace simmpi::mpi
