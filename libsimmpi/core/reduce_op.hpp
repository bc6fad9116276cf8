// SPDX-License-Identifier: Apache-2.0
// Predefined reduction operations (MPI_SUM, MPI_MAXLOC, ...) applied for real to the data, so
// collectives compute the right answer.
#pragma once

#include "libsimmpi/core/datatype.hpp"
#include "mpi.h"

namespace simmpi::mpi {

bool is_valid_op(MPI_Op op);
const char* op_name(MPI_Op op);
// True when `op` is defined for elements of `type` (MPI-3.1 section 5.9.2).
bool op_supports(MPI_Op op, const Datatype& type);
// inout[i] = in[i] op inout[i] for `count` elements of `type` in packed form (a derived type of
// one kind is its basic elements; pairs are value then index, without padding). All predefined
// ops are commutative, so the operand order only matters for user-defined ones.
void apply_op(MPI_Op op, const Datatype& type, const void* in, void* inout, int count);

}  // namespace simmpi::mpi
