// SPDX-License-Identifier: Apache-2.0
// MPI groups: ordered sets of world ranks. A group shares its rank list with the communicator
// it came from (MPI_Comm_group of MPI_COMM_WORLD on 100,000 ranks must not copy 100,000
// ranks 100,000 times), and the set operations of MPI-3.1 section 6.3.2 build new lists.
#pragma once

#include <memory>
#include <vector>

#include "libsimmpi/core/communicator.hpp"

namespace simmpi::mpi {

struct Group {
  int size = 0;
  Communicator::Members ranks;  // world ranks; nullptr: the identity [0, size)
  // The caller's session the group came from (MPI_Group_from_session_pset), whose buffered-send
  // buffer a communicator made from it uses; MPI_SESSION_NULL for every other group.
  MPI_Session session = MPI_SESSION_NULL;

  int world_rank(int i) const { return ranks ? (*ranks)[static_cast<std::size_t>(i)] : i; }
  // The rank of `world_rank` in the group, or MPI_UNDEFINED.
  int rank_of(int world_rank) const;
  std::vector<int> to_vector() const;
};

Group make_group(std::vector<int> world_ranks);
// The members of `c` (one group of an intercommunicator view).
Group group_of(const Communicator& c);

// MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL.
int compare_groups(const Group& a, const Group& b);
Group group_union(const Group& a, const Group& b);
Group group_intersection(const Group& a, const Group& b);
Group group_difference(const Group& a, const Group& b);
// The members at `ranks` of `g`, in that order (the ranks were checked).
Group group_select(const Group& g, const std::vector<int>& ranks);

}  // namespace simmpi::mpi
