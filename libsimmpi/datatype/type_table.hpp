// SPDX-License-Identifier: Apache-2.0
// Handles of derived datatypes. Each rank numbers its own types from SIMMPI_PREDEFINED_TYPES up,
// as a separate MPI process would, so handle values do not depend on what other ranks do, and a
// handle passed from one rank to another is caught instead of silently naming a stranger's type.
// A handle holds one reference to its type; freeing the handle drops it. Freed slots are reused
// oldest first and only once a few have piled up, so a stale handle used right after
// MPI_Type_free is reported as invalid rather than taken for the next new type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "libsimmpi/core/datatype.hpp"

namespace simmpi::mpi {

class TypeTable {
 public:
  // A new handle of `rank` for `t`.
  MPI_Datatype add(int rank, TypeRef t);
  // The type behind a derived handle of `rank`, or nullptr.
  const Datatype* find(int rank, MPI_Datatype h) const;
  // Drops the handle (the type lives on while other references remain). False if not a handle.
  bool remove(int rank, MPI_Datatype h);

 private:
  struct RankTypes {
    std::vector<TypeRef> slots;
    // Freed slots, a queue that starts at free_head. Not a std::deque, which allocates even
    // when empty: a rank that never frees a type pays nothing.
    std::vector<std::uint32_t> free_slots;
    std::size_t free_head = 0;
  };
  std::vector<RankTypes> ranks_;
};

// The process's table (all simulated ranks share the process).
TypeTable& type_table();

}  // namespace simmpi::mpi
