// SPDX-License-Identifier: Apache-2.0
// Context ids of new communicators, agreed on as MPICH does (MPIR_Get_contextid_sparse): every
// rank keeps a mask of the ids it has free, the members of the new communicator combine their
// masks with a bitwise-and allreduce and take the lowest id free everywhere. A communicator's
// point-to-point context is 2k for id k (its collectives use 2k + 1); ids 0 and 1 are
// MPI_COMM_WORLD's and MPI_COMM_SELF's. Like MPICH, a rank has 2048 ids, so at most 2046
// communicators of its own alive at once.
#pragma once

#include <cstdint>
#include <vector>

namespace simmpi::mpi {

class CollContext;

using ContextMask = std::vector<std::uint32_t>;
constexpr int kContextMaskWords = 64;

// The calling rank's free ids, or all ones when `contributes` is false (a rank that gets no
// communicator, such as color MPI_UNDEFINED in MPI_Comm_split, must not constrain the others).
ContextMask own_context_mask(int world_rank, bool contributes);
// Bitwise-and allreduce of `mask` over c's communicator (may yield).
void and_masks(CollContext& c, ContextMask& mask);
// The context of the lowest id set in `mask`, or -1 if none.
int lowest_context(const ContextMask& mask);
// Marks `context` used or free again for `world_rank`.
void take_context(int world_rank, int context);
void release_context(int world_rank, int context);

// The whole agreement over c's communicator: returns the context every member of the new
// communicator takes (the caller takes it when `takes`), or -1 if no id is free everywhere.
int agree_context(CollContext& c, int world_rank, bool takes);
// The same for an agreement that may overlap others of the same rank (MPI_Comm_idup runs on an
// auxiliary process while the rank goes on): a second round checks that every member could
// still take the agreed id, and the agreement starts again if one could not. A rank's
// overlapping agreements take turns by their parent's context (context_id.cpp). The caller
// takes the id it returns.
int agree_context_overlapping(CollContext& c, int world_rank);

}  // namespace simmpi::mpi
