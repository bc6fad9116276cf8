// SPDX-License-Identifier: Apache-2.0
// User-defined reduction operations (MPI_Op_create, MPI_Op_free, MPI_Op_commutative) and
// MPI_Reduce_local.
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/reduce_op.hpp"

using namespace simmpi::mpi;

namespace {

// MPI_Op_create and MPI_Op_create_c, whose functions differ in their length's type only.
template <class Function>
int op_create(const char* name, Function* user_fn, int commute, MPI_Op* op) {
  ApiCall call(name);
  if (!user_fn) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "user_fn is NULL");
  if (!op) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "op is NULL");
  *op = create_user_op(user_fn, commute != 0);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return op_create("MPI_Op_create", user_fn, commute, op);
}
int MPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  return op_create("MPI_Op_create_c", user_fn, commute, op);
}

int MPI_Op_free(MPI_Op* op) {
  ApiCall call("MPI_Op_free");
  if (!op) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "op is NULL");
  if (!free_user_op(*op))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_OP, "op=0x%08x is not a user-defined operation",
                     static_cast<unsigned>(*op));
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  ApiCall call("MPI_Op_commutative", ApiCall::Needs::Nothing);
  if (!is_valid_op(op))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_OP, "op=0x%08x is not an operation",
                     static_cast<unsigned>(op));
  *commute = is_commutative(op);
  return MPI_SUCCESS;
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op) {
  ApiCall call("MPI_Reduce_local");
  if (count < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_COUNT, "count=%d is negative", count);
  const Datatype* t = call.datatype(datatype, MPI_COMM_WORLD);
  if (!t) return MPI_ERR_TYPE;
  if (!is_valid_op(op))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_OP, "op=0x%08x is not an operation",
                     static_cast<unsigned>(op));
  if (!op_supports(op, *t))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_OP, "%s is not defined for %s", op_name(op), t->name);
  apply_op(op, datatype, *t, inbuf, inoutbuf, count);
  return MPI_SUCCESS;
}

}  // extern "C"
