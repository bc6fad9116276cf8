// SPDX-License-Identifier: Apache-2.0
// What a collective algorithm works with: the caller's rank in the communicator and byte-wise
// point-to-point messages on the communicator's collective channel (never matched by user
// receives). Algorithms are plain blocking code running on the caller's fiber, or on the
// auxiliary fiber of a nonblocking collective; each one is a file of its own under
// libsimmpi/coll/ and is declared in algorithms.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {

// Phases of a collective, one tag each, so the phases of one call never match each other.
enum CollTag : int {
  kTagBarrier = 1,
  kTagBcast,
  kTagReduce,
  kTagAllreduce,
  kTagGather,
  kTagScatter,
  kTagAllgather,
  kTagAlltoall,
  kTagScan,
  kTagReduceScatter,
  kTagRelay,  // moving a result to the root after an algorithm that ends elsewhere
  kTagInter,  // between the two groups of an intercommunicator (intercomm_algorithms.hpp)
  kTagCount,
};

class CollContext {
 public:
  // `seq` numbers the collective among those of `comm` (the same on every rank): it goes into
  // every tag, so two collectives in flight at once (nonblocking ones) never exchange messages.
  CollContext(World& w, Communicator& comm, std::uint32_t seq);
  // For collectives run inside other MPI calls (communicator creation, topologies): those are
  // ordered like the calls themselves on every member, so one reserved number serves them all.
  static constexpr std::uint32_t kInternalSeq = 0xFFFFFF;
  CollContext(World& w, Communicator& comm) : CollContext(w, comm, kInternalSeq) {}
  World& world() { return w_; }
  Communicator& comm() { return comm_; }
  std::uint32_t seq() const { return seq_; }
  int rank() const { return rank_; }
  int size() const { return comm_.size(); }

  // Nonblocking sends and receives of `bytes` bytes; a receive accepts any message up to its
  // size. Each may switch fibers (a send charges mpi.send_overhead).
  Request* isend(int dest, int tag, const void* buf, std::size_t bytes);
  Request* irecv(int source, int tag, void* buf, std::size_t bytes);
  // Wait returns the bytes a receive got (0 for a send).
  std::size_t wait(Request* r);
  void wait_all(std::vector<Request*>& reqs);
  void send(int dest, int tag, const void* buf, std::size_t bytes);
  std::size_t recv(int source, int tag, void* buf, std::size_t bytes);
  // Posts the receive, then the send, then waits for both; returns the bytes received.
  std::size_t sendrecv(int dest, const void* sbuf, std::size_t sbytes, int source, void* rbuf,
                       std::size_t rbytes, int tag);

 private:
  int wire_tag(int tag) const;
  void send_ahead(int dest, int tag, const void* buf, std::size_t bytes, SendAhead ahead);
  World& w_;
  Communicator& comm_;
  std::uint32_t seq_;
  int rank_;
};

}  // namespace simmpi::mpi
