// SPDX-License-Identifier: Apache-2.0
// The synchronization of MPI_Win_fence: a dissemination barrier over the window's members, the
// barrier MPICH's and Open MPI's fences call (Hensgen, Finkel, Manber 1988: in round k each
// member signals member + 2^k and waits for member - 2^k), timed in closed form rather than by
// its lg p rounds of messages, so a fence costs the host one wait per member instead of 2 lg p
// messages.
//
// Each round is a zero-byte sendrecv as libsimmpi/coll/barrier_dissemination.cpp makes it: a
// member that starts round k at B posts its receive, then its send (o_s, mpi.send_overhead),
// whose envelope reaches its partner L later; the receive completes o_r (mpi.recv_overhead)
// after the later of its posting and the arrival; the member starts round k + 1 when both are
// done:
//   B(k+1, r) = max(B(k, r) + o_s, max(B(k, src) + o_s + L(src, r), B(k, r)) + o_r)
// with src = r - 2^k. On an idle machine these are exactly the times the message-level barrier
// gives (zero-byte messages take their latency and no bandwidth); the last member to enter
// computes every member's release from all entry times.
#pragma once

#include "libsimmpi/rma/window.hpp"

namespace simmpi::mpi {

// Blocks the calling member `me` of `win` until every member entered this fence, and until its
// release time. May switch.
void fence_barrier(World& w, Window& win, int me);

}  // namespace simmpi::mpi
