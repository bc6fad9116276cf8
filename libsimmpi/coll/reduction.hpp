// SPDX-License-Identifier: Apache-2.0
// The reduction a collective applies: an operation on elements of one datatype. Algorithms work
// on element counts (they split vectors into blocks of whole elements) and combine with
// apply(): inout = in op inout, so `in` is the left operand, which matters for non-commutative
// (user) operations.
#pragma once

#include <cstddef>

#include "libsimmpi/core/reduce_op.hpp"

namespace simmpi::mpi {

struct Reduction {
  MPI_Op op;
  MPI_Datatype handle;          // what a user function receives
  const Datatype* type;         // the packed elements the algorithms combine
  const Datatype* packed_from;  // the program's type they were packed from (or null)
  bool commutative;

  Reduction(MPI_Op o, MPI_Datatype h, const Datatype& t, const Datatype* user_type = nullptr)
      : op(o), handle(h), type(&t), packed_from(user_type), commutative(is_commutative(o)) {}
  std::size_t elem_bytes() const { return type->size; }
  std::size_t bytes(int count) const { return type->size * static_cast<std::size_t>(count); }
  // inout[i] = in[i] op inout[i] for i < count.
  void apply(const void* in, void* inout, int count) const {
    apply_op(op, handle, *type, in, inout, count, packed_from);
  }
};

}  // namespace simmpi::mpi
