// SPDX-License-Identifier: Apache-2.0
// Requests (one per send or receive, blocking calls included, and one per nonblocking
// collective) and messages (the envelope and, when needed, the payload of a send on its way to a
// receiver).
//
// A request is complete when complete_at <= now: completion times are set by events of the
// network or by matching, possibly ahead of the clock, and a waiting rank sleeps until then.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "libsimmpi/core/datatype.hpp"
#include "mpi.h"
#include "runtime/core/sim_time.hpp"

namespace simmpi::mpi {

using runtime::SimTime;
struct BsendBuffer;
class Communicator;
struct Message;
class PartitionedChannel;

// Collective: a nonblocking collective (MPI_Ibcast...), completed by the auxiliary process that
// runs its algorithm for the owner (see libsimmpi/coll/nonblocking.hpp). Generalized: made by
// MPI_Grequest_start, completed by MPI_Grequest_complete (libsimmpi/p2p/grequest_api.cpp).
enum class RequestKind : std::uint8_t { Send, Recv, Collective, Generalized };
enum class SendMode : std::uint8_t { Standard, Synchronous, Ready, Buffered };

// The application's callbacks of a generalized request (MPI-3.1 12.2).
struct GeneralizedHooks {
  MPI_Grequest_query_function* query = nullptr;
  MPI_Grequest_free_function* free = nullptr;
  MPI_Grequest_cancel_function* cancel = nullptr;
  void* extra_state = nullptr;
};

// A wait for several requests (MPI_Waitall) whose completion times are not all known yet: it
// wakes its process once, when the last becomes known, at the latest completion time.
struct WaitGroup {
  int unknown = 0;      // requests whose completion time is still unknown
  SimTime latest;       // the latest completion time known so far
  SimTime latest_tail;  // the own_tail of the request completing at `latest` (the least if tied)

  // Counts a request completing at `t`, its last `own_tail` the waiter's own work.
  void note(SimTime t, SimTime own_tail) {
    if (t > latest) {
      latest = t;
      latest_tail = own_tail;
    } else if (t == latest && own_tail < latest_tail) {
      latest_tail = own_tail;
    }
  }
};

struct Request {
  RequestKind kind = RequestKind::Send;
  SendMode mode = SendMode::Standard;
  bool freed = false;     // MPI_Request_free was called: nobody will wait for it
  bool internal = false;  // created by a collective, not by the application
  int owner = 0;          // world rank that created it
  int waiter = 0;         // scheduler process woken on completion: the owner's, or an auxiliary
                          // process of the owner that created it
  const char* call = nullptr;  // a Collective request: the call that started it ("MPI_Ibcast")
  MPI_Request handle = MPI_REQUEST_NULL;
  SimTime complete_at = SimTime::max();  // max: not known yet
  // The last part of complete_at that is the owner's own work, not waiting: a receive's overhead,
  // paid once its data is in (see Scheduler::wake).
  SimTime own_tail;
  MPI_Status status{};

  // Persistent (MPI_Send_init, MPI_Recv_init...): MPI_Start posts it again and again; completing
  // it makes it inactive instead of releasing it (MPI-3.1 3.9).
  bool persistent = false;
  bool active = true;  // false for a persistent request not started, or completed since
  // A persistent collective (MPI_Bcast_init...): at each MPI_Start, reads the send buffers and
  // returns what the auxiliary process that completes the request runs (coll/nonblocking.hpp).
  std::function<std::function<void(Request&)>()> prepare_run;

  // The application buffer (receive: where data goes; send: where it comes from).
  void* buf = nullptr;
  std::int64_t count = 0;  // elements; 64-bit for the large-count (_c) calls
  TypeRef type;  // keeps a derived type alive while the request is pending (MPI-3.1 4.1.9)
  Communicator* comm = nullptr;
  int context = 0;
  int peer = 0;  // comm rank: destination of a send, source (or MPI_ANY_SOURCE) of a receive
  int tag = 0;
  std::uint64_t message_bytes = 0;  // a receive: size of the message it matched (truncation)
  std::uint64_t message_id = 0;     // the message it sends or matched (0: none), for observers
  // A blocking eager send posted ahead (post_send): its data, packed at the call, since the
  // caller may reuse its buffer before the send is made.
  std::unique_ptr<char[]> payload;

  std::unique_ptr<GeneralizedHooks> hooks;  // a Generalized request's callbacks
  // A partitioned send or receive (MPI_Psend_init, MPI_Precv_init; p2p/partitioned.hpp): the
  // channel it shares with the request it matched.
  std::shared_ptr<PartitionedChannel> partitioned;

  WaitGroup* wait_group = nullptr;  // while a wait for several requests counts this one
  Message* msg = nullptr;           // a receive: the message it matched, until its data is in
  Request* prev = nullptr;          // posted-receive queue links
  Request* next = nullptr;

  bool is_complete(SimTime now) const { return complete_at <= now; }
  bool is_inactive() const { return persistent && !active; }
  std::uint64_t capacity_bytes() const {
    return type ? type->size * static_cast<std::uint64_t>(count) : 0;
  }
};

enum class Protocol : std::uint8_t { Eager, Rendezvous };

struct Message {
  std::uint64_t id = 0;  // its send's Request::message_id
  int context = 0;
  int source = 0;  // comm rank of the sender
  int tag = 0;
  int src_world = 0;
  int dst_world = 0;
  std::uint64_t bytes = 0;
  Protocol protocol = Protocol::Eager;
  SimTime envelope_at;               // when the envelope reaches the receiver (probes see it)
  SimTime data_at = SimTime::max();  // eager: when the payload has fully arrived
  std::unique_ptr<char[]> payload;   // eager and unmatched: a packed copy of the data
  Request* send = nullptr;           // rendezvous: the sender's request (data read from it)
  std::uint64_t bsend_charge = 0;    // buffered send: attached-buffer bytes freed on delivery
  std::shared_ptr<BsendBuffer> bsend_buffer;  // the buffer they are charged to
  Request* recv = nullptr;                    // once matched
  Message* prev = nullptr;                    // unexpected queue links
  Message* next = nullptr;
};

// Handles for requests: an index into a table, with recycled slots and recycled objects.
class RequestPool {
 public:
  // A fresh request with a handle (kind, owner and the rest are the caller's to fill).
  Request* create();
  // nullptr if `h` is not a live request handle.
  Request* find(MPI_Request h) const;
  void release(Request* r);

 private:
  std::vector<Request*> table_{nullptr};  // slot 0 is MPI_REQUEST_NULL
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::unique_ptr<Request>> storage_;
  std::vector<Request*> spare_;
};

// Messages in flight, recycled like requests: one per send, and no allocation per message.
class MessagePool {
 public:
  // A fresh message (every field at its default).
  Message* create();
  // `m` is done with (received, or its matched probe received).
  void release(Message* m);

 private:
  std::vector<std::unique_ptr<Message>> storage_;
  std::vector<Message*> spare_;
};

}  // namespace simmpi::mpi
