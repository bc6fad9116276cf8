// SPDX-License-Identifier: Apache-2.0
// The one stream of facts about a run that every report reads (the profile, and later the
// timeline writers and the trace recorder): each library call a program process made, with its
// times on the process's own clock and what it moved. The MPI layer tells the facts; observers
// subscribe for the length of a run. Nothing is observed twice, and when no one listens the
// cost is one predictable branch per call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {

// A message a call sent or received: its number (the same at both ends), the world rank at the
// other end, its tag and size; `internal`: one of a collective's own messages. `at`: when it
// left the sender (after the send overhead), or when its data was in at the receiver.
struct MessageLink {
  std::uint64_t id = 0;
  int rank = 0;
  int tag = 0;
  std::uint64_t bytes = 0;
  bool internal = false;
  SimTime at;
  bool rendezvous = false;  // sent: its data moves only once the receive is posted
};

// One outermost library call of a program process (a rank or one of its threads); calls the
// library makes inside it are part of it.
struct CallFacts {
  const char* name = "";  // "MPI_Send"; a string literal
  int process = 0;        // the scheduler's process id
  int rank = 0;           // the rank it works for (process == rank for the rank's own fiber)
  int ordinal = 0;        // 0 for the rank, k for its k-th program thread
  // The size of the call's communicator (0: none; see comm_leader), beside `ordinal` so that an
  // observer may read both as one word (Profile).
  int comm_size = 0;
  SimTime begin, end;       // on the process's own clock: its own code before ends at `begin`
  SimTime blocked;          // of end - begin, blocked waiting for other processes or the network
  std::int64_t bytes = -1;  // payload the call sends, receives or contributes; -1: none known
  int peer = -1;            // world rank of the partner (point-to-point) or root; -1: none
  int tag = -1;             // point-to-point tag; -1: none
  // The call's communicator: the world rank of its rank 0 (disjoint communicators share
  // contexts), and its context id, -1 for both when none; in this order, next to each other, so
  // that an observer may read them as one word (Profile).
  int comm_leader = -1;
  int comm_context = -1;
  const std::string* comm_name = nullptr;  // valid during the notification only
  // Changes whenever *comm_name may have (a stamp of the communicator's name, unique in the
  // run); 0: unknown, compare the names.
  std::uint64_t comm_name_stamp = 0;
  // The point-to-point messages the call sent and those whose receives it completed (received
  // by a wait or test, not when posted), the collectives' own included; valid during the
  // notification only.
  const std::vector<MessageLink>* sent = nullptr;
  const std::vector<MessageLink>* received = nullptr;
  // Messages a probe of the call found (MPI_Probe, MPI_Iprobe, the matched probes,
  // simmpi_poll_rounds: the one whose arrival ended its rounds), `at` when their envelope
  // arrived; received later by another call. Valid during the notification only.
  const std::vector<MessageLink>* probed = nullptr;
  // For observers that want records (the call trace): the call's arguments and outcomes as the
  // fields of a call_trace::Kind (call_trace_format.hpp; an array as its length, then its
  // elements); `record_kind` -1: the MPI layer records none for this call. Valid during the
  // notification only.
  int record_kind = -1;
  const std::vector<std::int64_t>* record = nullptr;
  // Whole records that follow the call's own (each its kind, its number of fields, the fields:
  // a communicator MPI_Comm_idup made, known at the completion of its request).
  const std::vector<std::int64_t>* records_after = nullptr;
};

// Compute a program process did in its own code, outside library calls, as the time passed:
// a modeled task (kernel >= 0: a number for the kernel and precision, `kernel_name` its name as
// SIMMPI_COMPUTE_KERNEL takes it, a string that lives as long as the run; ops, bytes, dims) or
// a plain duration (kernel -1: SIMMPI_SLEEP). Deferred charges are not told (their total passes
// later, as told by the call that spends it).
struct ComputeFacts {
  int process = 0, rank = 0, ordinal = 0;
  int kernel = -1;
  const char* kernel_name = "";
  double ops = 0, bytes = 0;
  std::int64_t m = 0, n = 0, k = 0;
  SimTime time;
};

// A program thread a rank started (pthread_create): process `process`, the rank's thread
// `ordinal`, started by process `creator` at `at` (the creator's time). Joined: process `joiner`
// waited in pthread_join for it until it ended at `end`, and went on at `resumed`.
struct ThreadStart {
  int process = 0, rank = 0, ordinal = 0, creator = 0;
  SimTime at;
};
struct ThreadJoin {
  int joiner = 0, thread = 0;
  SimTime end, resumed;
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void call(const CallFacts& facts) = 0;
  // Whether it reads CallFacts::sent and ::received (collecting them costs a little per message)
  // and the rendezvous matches.
  virtual bool wants_messages() const { return false; }
  // Rendezvous message `id` was matched with its receive at `at`: its data moves from then on.
  virtual void rendezvous_matched(std::uint64_t /*id*/, SimTime /*at*/) {}
  // Whether it reads CallFacts::record and compute facts (the MPI and BLAS layers then note them).
  virtual bool wants_records() const { return false; }
  virtual void compute(const ComputeFacts& /*facts*/) {}
  // A program thread's start, and a join that waited for a thread's end.
  virtual void thread_started(const ThreadStart& /*facts*/) {}
  virtual void thread_joined(const ThreadJoin& /*facts*/) {}
};

// The observers of the run. Subscribing is for the launcher, before the ranks start.
class Observation {
 public:
  static bool listening() { return listening_; }
  static bool wants_messages() { return wants_messages_; }
  static bool wants_records() { return wants_records_; }
  // wants_messages() or wants_records(): whether a call's lists are read.
  static bool wants_lists() { return wants_lists_; }
  static void subscribe(Observer* o);
  static void unsubscribe(Observer* o);
  static void call(const CallFacts& facts) {
    if (only_) return only_->call(facts);
    for (Observer* o : observers_) o->call(facts);
  }
  static void rendezvous_matched(std::uint64_t id, SimTime at) {
    for (Observer* o : observers_) o->rendezvous_matched(id, at);
  }
  static void compute(const ComputeFacts& facts) {
    for (Observer* o : observers_) o->compute(facts);
  }
  static void thread_started(const ThreadStart& facts) {
    for (Observer* o : observers_) o->thread_started(facts);
  }
  static void thread_joined(const ThreadJoin& facts) {
    for (Observer* o : observers_) o->thread_joined(facts);
  }

 private:
  static inline bool listening_ = false;
  static inline bool wants_messages_ = false;
  static inline bool wants_records_ = false;
  static inline bool wants_lists_ = false;
  static inline std::vector<Observer*> observers_;
  // The observer when there is one (most runs: --profile alone), told of each call without the
  // loop over observers_.
  static inline Observer* only_ = nullptr;
};

}  // namespace simmpi::runtime
