// SPDX-License-Identifier: Apache-2.0
// The critical path of a run (report.critical_path): the chain of events that decided its end,
// found by walking back from the rank that finished last. On a rank the walk goes back through
// its own code and its MPI calls; a call that waited for a message (its data came in after the
// call began) hands the walk to the message's sender at the time the message left it. Each
// stretch is one of: compute (a rank's own code), overhead (the rank's time inside an MPI call
// not spent waiting), network (a message from leaving its sender to being in at its receiver:
// latency, transfer, sharing), or waiting that no recorded message explains (one-sided
// synchronization and other closed-form waits). Messages are point-to-point ones and those
// collectives are made of; a probe's (simmpi_poll_rounds' included) is the message it found,
// whose arrival ended the prober's waiting. The walk goes through a rank's program threads too:
// a pthread_join that waited hands it to the joined thread at its end, and a thread's start to
// its creator at the pthread_create.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/observe/observation.hpp"

namespace simmpi::runtime {

class CriticalPath : public Observer {
 public:
  explicit CriticalPath(int ranks);
  void call(const CallFacts& f) override;
  bool wants_messages() const override { return true; }
  void rendezvous_matched(std::uint64_t id, SimTime at) override { matched_[id] = at; }
  void thread_started(const ThreadStart& f) override;
  void thread_joined(const ThreadJoin& f) override;

  enum class Kind { Compute, Overhead, Network, Waiting };
  struct Stretch {
    Kind kind;
    int rank;       // where it happens (network: the receiver)
    int from_rank;  // network: the sender; else rank
    int thread;     // of `rank`: 0 its own fiber, k its k-th program thread
    int from_thread;
    SimTime begin, end;
    const char* call;     // the MPI call (overhead, waiting, network: the receiving call), or ""
    std::uint64_t bytes;  // network: the message's size
    // Network stretches, explained by the machine model (explain_network): the route's zero-load
    // latency and the transfer alone at its narrowest link; the rest of the stretch is
    // contention (links shared with other flows) and protocol (a rendezvous' handshake).
    SimTime latency, transfer;
    std::string link;  // the route's link that carried most bytes meanwhile (network.stats)
    SimTime contention() const { return end - begin - latency - transfer; }
  };
  // Fills latency, transfer and link of each network stretch from `model`, a callable
  // (const Stretch&) -> Explained; latency and transfer are cut to the stretch's length.
  struct Explained {
    SimTime latency, transfer;
    std::string link;
  };
  template <typename Model>
  static void explain_network(std::vector<Stretch>& path, Model&& model) {
    for (Stretch& s : path) {
      if (s.kind != Kind::Network) continue;
      Explained e = model(static_cast<const Stretch&>(s));
      const SimTime length = s.end - s.begin;
      s.latency = std::min(e.latency, length);
      s.transfer = std::min(e.transfer, length - s.latency);
      s.link = std::move(e.link);
    }
  }
  // "rank 3", or "rank 3 thread 1".
  static std::string where(int rank, int thread);
  // Walks back from the last rank's end (`end[rank]` for each rank); the stretches in time order.
  std::vector<Stretch> walk(const std::vector<SimTime>& end) const;
  // The summary for stderr and the JSON document, from walk()'s stretches; `top`: how many of
  // the longest stretches the summary lists.
  static std::string text(const std::vector<Stretch>& path, std::size_t top);
  static std::string json(const std::vector<Stretch>& path);
  static const char* kind_name(Kind k);
  // The path's length and its time by Kind.
  struct Totals {
    SimTime total, by_kind[4];
    SimTime latency, transfer, contention;  // the network stretches' parts (explain_network)
  };
  static Totals totals(const std::vector<Stretch>& path);

 private:
  struct Received {
    std::uint64_t id;
    SimTime at;
  };
  struct Call {
    SimTime begin, end, blocked;
    const char* name;
    std::uint32_t first_received, received;  // its messages in received_[rank]
    std::uint64_t last_rendezvous_sent;      // the last rendezvous message it sent, or 0
  };
  struct Sent {
    int process;  // the sender
    int to_rank;  // the receiver
    SimTime at;
    std::uint64_t bytes;
    bool rendezvous;
  };
  struct Lane {  // a program process: a rank's own fiber (process id = rank) or a thread
    int rank = 0, thread = 0;
    int creator = -1;  // a thread: the process that started it, at `start`
    SimTime start;
    std::vector<Call> calls;         // in order
    std::vector<Received> received;  // messages its calls received or probed
    std::vector<ThreadJoin> joins;   // joins that waited, in order
  };
  Lane& lane(int process);
  std::vector<Lane> lanes_;                                 // by process id
  std::unordered_map<std::uint64_t, Sent> sent_;            // by message id
  std::unordered_map<std::uint64_t, SimTime> matched_;      // rendezvous messages: when matched
  std::unordered_map<std::uint64_t, int> thread_receiver_;  // messages a thread received
};

}  // namespace simmpi::runtime
