// SPDX-License-Identifier: Apache-2.0
// Language interoperability beyond the Fortran bindings (MPI-3.1 17.2.5, 17.1.9): the
// MPI_F08_status conversions (an MPI_F08_status is the C status itself) and MPI_Type_match_size.
// The handle and Fortran status conversions live with the bindings (fortran/interop_api.cpp).
#include <cstring>

#include "libsimmpi/core/api_call.hpp"

extern "C" {

int MPI_Status_c2f08(const MPI_Status* c_status, MPI_F08_status* f08_status) {
  *f08_status = *c_status;
  return MPI_SUCCESS;
}

int MPI_Status_f082c(const MPI_F08_status* f08_status, MPI_Status* c_status) {
  *c_status = *f08_status;
  return MPI_SUCCESS;
}

// The Fortran-named predefined type of `size` bytes in `typeclass`, as MPICH answers.
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  simmpi::mpi::ApiCall call("MPI_Type_match_size", simmpi::mpi::ApiCall::Needs::Nothing);
  struct Match {
    int typeclass, size;
    MPI_Datatype type;
  };
  static constexpr Match kMatches[] = {
      {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},   {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
      {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},   {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
      {MPI_TYPECLASS_REAL, 4, MPI_REAL4},         {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
      {MPI_TYPECLASS_REAL, 16, MPI_REAL16},       {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
      {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
  };
  for (const Match& m : kMatches) {
    if (m.typeclass == typeclass && m.size == size) {
      *datatype = m.type;
      return MPI_SUCCESS;
    }
  }
  return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "no predefined type of typeclass %d (MPI_TYPECLASS_REAL 1, INTEGER 2, COMPLEX "
                   "3) has %d bytes",
                   typeclass, size);
}

}  // extern "C"
