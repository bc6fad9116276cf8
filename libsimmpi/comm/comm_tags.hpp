// SPDX-License-Identifier: Apache-2.0
// Tags of the internal messages of the communicator and topology calls, on a communicator's
// collective channel. They sit far above the collectives' own tags (CollTag, small numbers) so
// the two never match each other.
#pragma once

namespace simmpi::mpi {

// Leaders of the two groups of an intercommunicator (merge, dup), on the intercommunicator.
constexpr int kTagInterLeaders = 0x100000;
constexpr unsigned kInterLeadersSeqMask = 0xFFFFF;  // the low bits carry the collective's number
// MPI_Neighbor_*: kTagNeighbor + the index of the block in the Cartesian case.
constexpr int kTagNeighbor = 0x200000;
// MPI_Dist_graph_create's edge lists, on the old communicator.
constexpr int kTagDistGraph = 0x300000;
// MPI_Comm_create_group and MPI_Intercomm_create carry the program's tag, as MPICH does, in
// the low 28 bits under these prefixes.
constexpr int kTagCreateGroup = 0x10000000;
constexpr int kTagIntercommCreate = 0x20000000;
constexpr int kUserTagMask = 0x0fffffff;
// MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4.1 11.3) carry a hash of
// the program's string tag under this prefix, on MPI_COMM_WORLD's collective channel.
constexpr int kTagCreateFromGroup = 0x30000000;

}  // namespace simmpi::mpi
