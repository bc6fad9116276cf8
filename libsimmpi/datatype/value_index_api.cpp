// SPDX-License-Identifier: Apache-2.0
// MPI_Type_get_value_index (MPI-4.1 6.9.4): the predefined (value, index) pair type that
// MPI_MINLOC and MPI_MAXLOC take for a value type and an index type, as MPICH gives them (the
// C pairs with an int index) plus the Fortran pairs of one type twice; MPI_DATATYPE_NULL for any
// other two types (simmpi constructs no pair types of its own).
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

struct PairType {
  MPI_Datatype value, index, pair;
};

constexpr PairType kPairs[] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
    {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},
    {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
    {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_REAL, MPI_REAL, MPI_2REAL},
    {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
};

}  // namespace

extern "C" {

int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                             MPI_Datatype* pair_type) {
  ApiCall call("MPI_Type_get_value_index", ApiCall::Needs::Nothing);
  const Datatype* v = nullptr;
  const Datatype* i = nullptr;
  TypeArgs a(call);
  a.type(value_type, "value_type", &v).type(index_type, "index_type", &i);
  a.out(pair_type, "pair_type");
  if (!a.ok()) return a.error();
  *pair_type = MPI_DATATYPE_NULL;
  for (const PairType& p : kPairs)
    if (p.value == value_type && p.index == index_type) *pair_type = p.pair;
  return MPI_SUCCESS;
}

}  // extern "C"
