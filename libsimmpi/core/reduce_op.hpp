// SPDX-License-Identifier: Apache-2.0
// Reduction operations applied for real to the data, so collectives compute the right answer:
// the predefined ones (MPI_SUM, MPI_MAXLOC, ...) and user functions (MPI_Op_create).
#pragma once

#include "libsimmpi/core/datatype.hpp"
#include "mpi.h"

namespace simmpi::mpi {

// A predefined operation, or a user operation with at least one live registration.
bool is_valid_op(MPI_Op op);
const char* op_name(MPI_Op op);
// True when `op` is defined for elements of `type` (MPI-3.1 section 5.9.2); user operations
// accept every type.
bool op_supports(MPI_Op op, const Datatype& type);
// Predefined operations are commutative; a user operation is what its creator declared.
bool is_commutative(MPI_Op op);
bool is_user_op(MPI_Op op);
// inout[i] = in[i] op inout[i] for `count` elements of `type` in packed form (a derived type of
// one kind is its basic elements; pairs are value then index, without padding), for a predefined
// `op`. All predefined ops are commutative, so the operand order only matters for user ones.
void apply_op(MPI_Op op, const Datatype& type, const void* in, void* inout, int count);
// The same for any valid op; a user function is called as fn(in, inout, &count, &handle), on
// the calling process (it may use the calling rank's globals and call MPI). `packed_from`: the
// program's type whose elements `type` packs (collectives work on packed copies); a user
// function then gets its operands laid out as that type says, gaps and extents included.
void apply_op(MPI_Op op, MPI_Datatype handle, const Datatype& type, const void* in, void* inout,
              int count, const Datatype* packed_from = nullptr);

using UserFunction = void (*)(void* in, void* inout, int* len, MPI_Datatype* type);
// MPI_Op_create. Handles are global, not per rank: every registration of the same function with
// the same commutativity returns the same handle (so ranks agree on it, as the collective
// consistency check requires) and holds one reference.
MPI_Op create_user_op(UserFunction fn, bool commutative);
// MPI_Op_create_c (MPI-4.1): the same for a function whose length argument is an MPI_Count.
using LargeUserFunction = void (*)(void* in, void* inout, MPI_Count* len, MPI_Datatype* type);
MPI_Op create_user_op(LargeUserFunction fn, bool commutative);
// MPI_Op_free: drops one reference. False if `op` is not a live user operation. An operation
// whose references are gone stays callable by collectives already started with it.
bool free_user_op(MPI_Op op);

}  // namespace simmpi::mpi
