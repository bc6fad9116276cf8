// SPDX-License-Identifier: Apache-2.0
// Dynamic processes (MPI-3.1 chapter 10): the children of MPI_Comm_spawn are new ranks of the
// same job, in the slots reserved at start (mpi.spawn_slots) on the platform's free nodes.
#pragma once

namespace simmpi::mpi {

class ApiCall;

// The spawned rank's part of its spawn, from its MPI_Init: its job agrees on a context, its
// first rank swaps it with the spawning root, and every child gets the intercommunicator to its
// parents (MPI_Comm_get_parent). Does nothing for a rank the run started with. May yield.
void connect_to_parents(ApiCall& call);

}  // namespace simmpi::mpi
