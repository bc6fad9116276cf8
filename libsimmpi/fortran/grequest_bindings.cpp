// SPDX-License-Identifier: Apache-2.0
// MPI_GREQUEST_START from Fortran (MPI-3.1 12.2): the program's query, free and cancel
// subroutines take every argument by reference, an INTEGER(KIND=MPI_ADDRESS_KIND) extra state and
// a trailing IERROR, so C calls them through trampolines; the request's C extra_state is a record
// of the three subroutines and the program's extra state, freed after the free subroutine ran.
#include "libsimmpi/fortran/custom_bindings.hpp"

namespace simmpi::mpi::fortran::custom {
namespace {

struct FortranGrequest {
  using Query = void (*)(MPI_Aint* extra_state, MPI_Fint* status, MPI_Fint* ierror);
  using Free = void (*)(MPI_Aint* extra_state, MPI_Fint* ierror);
  using Cancel = void (*)(MPI_Aint* extra_state, MPI_Fint* complete, MPI_Fint* ierror);
  Query query;
  Free free;
  Cancel cancel;
  MPI_Aint extra_state;
};

// The C status is at least as aligned as the INTEGER array the Fortran subroutine sees, and holds
// exactly its bytes (fortran_args.hpp).
int query_trampoline(void* extra, MPI_Status* status) {
  auto* g = static_cast<FortranGrequest*>(extra);
  MPI_Fint ierror = MPI_SUCCESS;
  g->query(&g->extra_state, reinterpret_cast<MPI_Fint*>(status), &ierror);
  return ierror;
}

int free_trampoline(void* extra) {
  auto* g = static_cast<FortranGrequest*>(extra);
  MPI_Fint ierror = MPI_SUCCESS;
  g->free(&g->extra_state, &ierror);
  delete g;
  return ierror;
}

int cancel_trampoline(void* extra, int complete) {
  auto* g = static_cast<FortranGrequest*>(extra);
  MPI_Fint ierror = MPI_SUCCESS, fortran_complete = complete != 0;
  g->cancel(&g->extra_state, &fortran_complete, &ierror);
  return ierror;
}

// The generated entry point hands over the Fortran subroutines in C's pointer types: cast back
// through void (*)(), which casts to and from any function pointer type without a warning.
template <class To, class From>
To fortran_procedure(From* f) {
  return reinterpret_cast<To>(reinterpret_cast<void (*)()>(f));
}

}  // namespace

int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, MPI_Aint* extra_state,
                       MPI_Request* request) {
  auto* g =
      new FortranGrequest{fortran_procedure<FortranGrequest::Query>(query_fn),
                          fortran_procedure<FortranGrequest::Free>(free_fn),
                          fortran_procedure<FortranGrequest::Cancel>(cancel_fn), *extra_state};
  int err = ::MPI_Grequest_start(query_trampoline, free_trampoline, cancel_trampoline, g, request);
  if (err != MPI_SUCCESS) delete g;
  return err;
}

}  // namespace simmpi::mpi::fortran::custom
