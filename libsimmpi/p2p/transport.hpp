// SPDX-License-Identifier: Apache-2.0
// Point-to-point transport: matching, the eager and rendezvous protocols, and completion.
// Every message of the job, user or collective, goes through start_send/start_recv, so every
// collective costs what its messages cost.
//
// Timeline of one message of S bytes from rank a to rank b (L = latency(a, b), o_s and o_r the
// send and receive overheads, "transfer" the hardware's time to move S bytes):
//   eager (S <= mpi.eager_threshold):
//     t0        a calls send; a is busy o_s, then the send is complete for a
//     t0+o_s    envelope matched against b's posted receives (in posting order), else queued
//               in b's unexpected queue (in sending order); payload starts moving
//     ta        payload in (ta = t0+o_s+L+S/B on an idle machine)
//     max(ta, t_post) + o_r   b's receive completes
//   rendezvous (larger, or synchronous mode): the request-to-send reaches b at t0+o_s+L; once b
//     has posted a matching receive, clear-to-send takes L back to a, then the payload moves;
//     a's send completes when the last byte is in, b's receive o_r later.
// Matching at send time (as SMPI does) keeps MPI's non-overtaking order for each sender and
// receiver pair whatever the network does to the payloads.
#pragma once

#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

enum class Channel { User, Collective };

// Posts a send from the calling rank after its owed time and the send overhead (may switch
// fibers). The request is complete once posted for eager and buffered sends. A nonblocking send
// (not `then_wait`, not buffered) is posted ahead (Scheduler::post_ahead): when something else
// is due before the overhead ends, the scheduler posts it at that time and the rank runs on.
// `then_wait`: the caller waits for the request right after (a blocking send), so a rendezvous
// send that would block at once after posting is posted by the scheduler when the overhead
// ends, with no switch to the rank in between (Scheduler::settle_then), and an eager one that
// would switch is posted ahead with its data copied at the call: then nullptr is returned, the
// send being complete for the caller. The same simulation either way.
Request* start_send(World& w, Communicator& comm, Channel channel, int dest, int tag,
                    const void* buf, std::int64_t count, const Datatype& type, SendMode mode,
                    bool then_wait = false);
// What a blocking eager send does when it would be posted ahead (Scheduler::post_ahead: something
// else is due before its overhead ends). CopyData: its data is copied at the call and the caller
// goes on at once (MPI_Send: the buffer is the caller's again when the call returns). CallerWaits:
// the caller waits for something else (MPI_Sendrecv's receive) before it returns or touches the
// buffer, which waits for the post to be made first, so the post reads the buffer itself.
// Wait: the caller waits for the post to be made, as after a nonblocking send and its wait (a
// collective's send, whose buffer may be large: a switch is cheaper than the copy).
enum class SendAhead { CopyData, CallerWaits, Wait };
// A blocking send (MPI_Send and the other modes): start_send(..., then_wait = true), then the
// wait for its request and its release, in one; may switch fibers. An eager send posted at once
// makes no request at all (most blocking sends: see transport.cpp).
void send_blocking(World& w, Communicator& comm, Channel channel, int dest, int tag,
                   const void* buf, std::int64_t count, const Datatype& type, SendMode mode,
                   SendAhead ahead = SendAhead::CopyData);
// Posts a receive for the calling rank after its owed time. `source` may be MPI_ANY_SOURCE,
// `tag` MPI_ANY_TAG. A nonblocking receive is posted ahead as nonblocking sends are.
// `then_wait`: a blocking receive; it is posted when the owed time ends, by the scheduler if
// the rank would then block at once (as start_send does for blocking sends).
Request* start_recv(World& w, Communicator& comm, Channel channel, int source, int tag, void* buf,
                    std::int64_t count, const Datatype& type, bool then_wait = false);
// A blocking receive (MPI_Recv) into `r`, a fresh request on the caller's stack: posted as
// start_recv(..., then_wait = true) posts it, then waited for (may switch fibers). The caller
// reads its status and retires it (retire_request), as for a request of the table.
void recv_blocking(World& w, Request& r, Communicator& comm, Channel channel, int source, int tag,
                   void* buf, std::int64_t count, const Datatype& type);
// The two halves of start_send/start_recv, for persistent requests (MPI-3.1 3.9): prepare_*
// fills `r` (a fresh request) with the arguments and holds the communicator; post_* starts the
// operation, resetting r's completion and status, and may be called again once r completed.
// post_send charges the send overhead (may switch fibers or post ahead; false when a blocking
// send was posted ahead and `r` is no longer the caller's); post_recv posts now.
void prepare_send(World& w, Request* r, Communicator& comm, Channel channel, int dest, int tag,
                  const void* buf, std::int64_t count, const Datatype& type, SendMode mode);
bool post_send(World& w, Request* r, bool then_wait = false);
void prepare_recv(World& w, Request* r, Communicator& comm, Channel channel, int source, int tag,
                  void* buf, std::int64_t count, const Datatype& type);
void post_recv(World& w, Request* r);

// Matched probes (MPI_Mprobe): claim_unexpected takes a message that probe_unexpected found out
// of the caller's unexpected queue, so no other receive can match it; start_matched_recv then
// receives exactly that message into a new request (MPI_Mrecv, MPI_Imrecv). Neither switches.
Message* claim_unexpected(World& w, const Message* m);
Request* start_matched_recv(World& w, Communicator& comm, Message* m, void* buf, std::int64_t count,
                            const Datatype& type);

// A request that is complete at once, as for MPI_PROC_NULL peers.
Request* null_peer_request(World& w, RequestKind kind);

// Marks `r` complete at time `t` (>= now) and wakes the process waiting for it; a request freed
// with MPI_Request_free is released instead. Does not switch. The last `own_tail` before `t` is
// the owner's own work (a receive's overhead), not waiting, in the profile's blocked time.
void complete_request(World& w, Request* r, SimTime t, SimTime own_tail = SimTime());

// Blocks the calling rank until `r` is complete.
void wait_request(World& w, Request& r);
// Blocks the calling rank until all of `reqs` (nullptr entries ignored) are complete: it wakes
// once, at the latest completion time, instead of once per request.
void wait_all_requests(World& w, Request* const* reqs, int n);
// Blocks the calling rank until at least one of `reqs` (nullptr entries ignored) is complete.
void wait_any_request(World& w, Request* const* reqs, int n);
// Copies r's status out (unless `status` is MPI_STATUS_IGNORE) and releases r (a request of
// recv_blocking, outside the table, lets go of its communicator); tells the observers of a
// receive's message (note_received).
void retire_request(World& w, Request* r, MPI_Status* status);
// Tells the observers that the calling rank's call completed complete request r's receive, if r
// is a receive of a message: what a persistent receive made inactive, not retired, does too.
void note_received(World& w, const Request& r);

// Cancels a receive that has not matched yet. False if it already matched.
bool cancel_recv(World& w, Request& r);

// The first message in the caller's unexpected queue that a receive (source, tag) on `context`
// would match, and whose envelope has arrived; nullptr if none. `*next_arrival` receives the
// envelope time of the first matching message not yet arrived (SimTime::max() if none), and
// `*first_match`, when given, that first matching message, arrived or not (nullptr if none).
const Message* probe_unexpected(World& w, int context, int source, int tag, SimTime* next_arrival,
                                const Message** first_match = nullptr);
// Until when a probe of the calling rank on `comm` for (source, tag) must find nothing: the
// arrival of the first matching message already sent (the one a probe would see), or, with
// none, the earliest a message not yet sent could arrive: from a named source, the latency after
// it can next act (a sleeping rank sends nothing before its sleep ends; it may be sleeping
// through the overhead of a send whose envelope leaves when it wakes); from any source, the
// smallest latency after now. now() when one has arrived.
SimTime fruitless_until(World& w, const Communicator& comm, int source, int tag);

// Status text for deadlock reports: "MPI_Recv(source=2, tag=7, comm=MPI_COMM_WORLD)" details.
std::string describe_request(const Request& r);

}  // namespace simmpi::mpi
