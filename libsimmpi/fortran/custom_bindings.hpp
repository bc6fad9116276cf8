// SPDX-License-Identifier: Apache-2.0
// The Fortran bindings that bindings.tbl marks `custom`: the generated mpi_..._ entry point passes
// its Fortran arguments (all by reference) here and stores the result in IERROR. Each takes the
// arguments in the types the generator derives from the table (a mismatch does not compile).
// They may yield, as the C calls they make may.
#pragma once

#include "mpi.h"

namespace simmpi::mpi::fortran::custom {

// Attribute callbacks written in Fortran take every argument by reference and return IERROR;
// C calls them through trampolines that the keyval carries in its extra_state.
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn,
                           MPI_Comm_delete_attr_function* delete_fn, int* keyval,
                           MPI_Aint* extra_state);
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval,
                      MPI_Fint* extra_state);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn,
                          MPI_Win_delete_attr_function* delete_fn, int* keyval,
                          MPI_Aint* extra_state);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn,
                           MPI_Type_delete_attr_function* delete_fn, int* keyval,
                           MPI_Aint* extra_state);

// Attribute values are integers in Fortran: INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER in the
// MPI-1 calls. The predefined attributes (MPI_TAG_UB...) read as their values.
int MPI_Comm_set_attr(const MPI_Comm* comm, const int* keyval, MPI_Aint* value);
int MPI_Comm_get_attr(const MPI_Comm* comm, const int* keyval, MPI_Aint* value, int* flag);
int MPI_Attr_put(const MPI_Comm* comm, const int* keyval, MPI_Fint* value);
int MPI_Attr_get(const MPI_Comm* comm, const int* keyval, MPI_Fint* value, int* flag);
// MPI_WIN_BASE reads as the base address, MPI_WIN_SIZE, _DISP_UNIT, _CREATE_FLAVOR and _MODEL
// as their values.
int MPI_Win_set_attr(const MPI_Win* win, const int* keyval, MPI_Aint* value);
int MPI_Win_get_attr(const MPI_Win* win, const int* keyval, MPI_Aint* value, int* flag);
int MPI_Type_set_attr(const MPI_Datatype* datatype, const int* keyval, MPI_Aint* value);
int MPI_Type_get_attr(const MPI_Datatype* datatype, const int* keyval, MPI_Aint* value, int* flag);

// Generalized requests (grequest_bindings.cpp): the query, free and cancel subroutines take
// (EXTRA_STATE, STATUS, IERROR), (EXTRA_STATE, IERROR) and (EXTRA_STATE, COMPLETE, IERROR), with an
// INTEGER(KIND=MPI_ADDRESS_KIND) extra state; C calls them through trampolines.
int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, MPI_Aint* extra_state,
                       MPI_Request* request);

// Fortran cannot use the detached buffer's address; only SIZE is returned.
int MPI_Buffer_detach(void* buffer_addr, int* size);
int MPI_Comm_detach_buffer(const MPI_Comm* comm, void* buffer_addr, int* size);
int MPI_Session_detach_buffer(const MPI_Session* session, void* buffer_addr, int* size);

}  // namespace simmpi::mpi::fortran::custom
