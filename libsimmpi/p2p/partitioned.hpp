// SPDX-License-Identifier: Apache-2.0
// Partitioned communication (MPI-4.1 4.2): one MPI_Psend_init request and the MPI_Precv_init
// request it matches form a channel that carries one message per round (a pair of MPI_Starts),
// its data handed over partition by partition as the sender marks them ready.
//
// Matching: the k-th MPI_Psend_init from a to b on one communicator and tag pairs with the k-th
// MPI_Precv_init of b from a there (init order, MPI-4.1 4.2.2; no wildcards). The partition counts
// of the two sides may differ; the total sizes must be equal (else MPI_ERR_TRUNCATE at the second
// init call).
//
// Timeline of a round (o_s, o_r the send and receive overheads, L(x, y) the latency, a the sender,
// b the receiver), as MPICH does it: the receiver's MPI_Start tells the sender its buffer is
// ready, and data then goes without any further handshake:
//   b's MPI_Start at t_r     clear-to-send reaches a at c = t_r + L(b, a)
//   a's MPI_Pready* at t_p   a is busy o_s; the partitions it names leave as one flow at
//                            max(t_p + o_s, c); those named before c leave together at c
//   a flow of S bytes        arrives at t_a (t_a = start + L(a, b) + S/B on an idle machine)
//   MPI_Parrived(j)          true from the arrival of the last send partition overlapping
//                            receive partition j, plus o_r
//   the send request         complete when its last flow has arrived (as a rendezvous send)
//   the receive request      complete o_r after the last arrival
// So all partitions ready at once, after the receiver started, cost one message of the whole
// size on the eager timeline, o_s + L + S/B + o_r, whatever its size: the receiver's start is the
// clear-to-send a rendezvous would wait for.
//
// Data: the sender's partitions are copied into the receiver's buffer when they arrive, straight
// when both sides have partitions of one size, else through a packed staging copy of the message
// that is unpacked one whole receive partition at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

class PartitionedChannel;

// MPI_Psend_init (`send`) or MPI_Precv_init: makes the caller's inactive partitioned request and
// matches it with the peer's if that exists already. Checks every argument; MPI_SUCCESS or the
// error raised. Never switches.
int init_partitioned(ApiCall& call, bool send, void* buf, int partitions, MPI_Count count,
                     MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Request* request);

// MPI_Start of the partitioned request `r` (inactive, the caller's). Never switches.
void start_partitioned(World& w, Request& r);

// MPI_Pready, _range and _list: marks `parts` of the caller's active partitioned send `request`
// ready, after the send overhead (switches fibers). MPI_SUCCESS or the error raised.
int mark_ready(ApiCall& call, MPI_Request request, const std::vector<int>& parts);

// MPI_Parrived: whether partition `partition` of the caller's partitioned receive `request` has
// arrived (yes for MPI_REQUEST_NULL or an inactive request). Charges one poll of an active one
// (switches fibers). MPI_SUCCESS or the error raised.
int partition_arrived(ApiCall& call, MPI_Request request, int partition, int* flag);

// What a partitioned request waits for, for deadlock reports: "partitioned send to dest 1
// tag=3 comm=MPI_COMM_WORLD, 1 of 2 partitions ready".
std::string describe_partitioned(const Request& r);

}  // namespace simmpi::mpi
