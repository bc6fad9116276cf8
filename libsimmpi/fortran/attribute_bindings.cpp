// SPDX-License-Identifier: Apache-2.0
// Fortran attributes of communicators, windows and datatypes: keyvals whose copy and delete
// callbacks are Fortran subroutines, attribute values that are Fortran integers, and the predefined
// callbacks MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, MPI_WIN_DUP_FN, MPI_TYPE_DUP_FN... as Fortran
// procedures. Also MPI_BUFFER_DETACH and the other detaches, in both modules' forms.
#include "libsimmpi/fortran/custom_bindings.hpp"

// The predefined callbacks, called by C through the keyval or directly by a Fortran program.
// Their addresses are what a program passes to MPI_COMM_CREATE_KEYVAL, and are mapped back to
// the C callbacks there. `Int` is INTEGER(KIND=MPI_ADDRESS_KIND) for the MPI-2 names, INTEGER
// for the MPI-1 ones.
#pragma GCC visibility push(default)
extern "C" {
void mpi_comm_null_copy_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*,
                            MPI_Aint*, MPI_Fint* flag, MPI_Fint* ierror) {
  *flag = 0;
  *ierror = MPI_SUCCESS;
}
void mpi_comm_dup_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint* in,
                      MPI_Aint* out, MPI_Fint* flag, MPI_Fint* ierror) {
  *out = *in;
  *flag = 1;
  *ierror = MPI_SUCCESS;
}
void mpi_comm_null_delete_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Aint*, const MPI_Aint*,
                              MPI_Fint* ierror) {
  *ierror = MPI_SUCCESS;
}
void mpi_null_copy_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*,
                       MPI_Fint*, MPI_Fint* flag, MPI_Fint* ierror) {
  *flag = 0;
  *ierror = MPI_SUCCESS;
}
void mpi_dup_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint* in,
                 MPI_Fint* out, MPI_Fint* flag, MPI_Fint* ierror) {
  *out = *in;
  *flag = 1;
  *ierror = MPI_SUCCESS;
}
void mpi_null_delete_fn_(const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*,
                         MPI_Fint* ierror) {
  *ierror = MPI_SUCCESS;
}

// The same under gfortran -fsecond-underscore (g77's convention).
// A window's and a datatype's callbacks take the same arguments (their handle in place of the
// communicator's).
decltype(mpi_comm_null_copy_fn_) mpi_win_null_copy_fn_
    __attribute__((alias("mpi_comm_null_copy_fn_")));
decltype(mpi_comm_dup_fn_) mpi_win_dup_fn_ __attribute__((alias("mpi_comm_dup_fn_")));
decltype(mpi_comm_null_delete_fn_) mpi_win_null_delete_fn_
    __attribute__((alias("mpi_comm_null_delete_fn_")));
decltype(mpi_comm_null_copy_fn_) mpi_type_null_copy_fn_
    __attribute__((alias("mpi_comm_null_copy_fn_")));
decltype(mpi_comm_dup_fn_) mpi_type_dup_fn_ __attribute__((alias("mpi_comm_dup_fn_")));
decltype(mpi_comm_null_delete_fn_) mpi_type_null_delete_fn_
    __attribute__((alias("mpi_comm_null_delete_fn_")));
decltype(mpi_comm_null_copy_fn_) mpi_type_null_copy_fn__
    __attribute__((alias("mpi_comm_null_copy_fn_")));
decltype(mpi_comm_dup_fn_) mpi_type_dup_fn__ __attribute__((alias("mpi_comm_dup_fn_")));
decltype(mpi_comm_null_delete_fn_) mpi_type_null_delete_fn__
    __attribute__((alias("mpi_comm_null_delete_fn_")));

decltype(mpi_comm_null_copy_fn_) mpi_comm_null_copy_fn__
    __attribute__((alias("mpi_comm_null_copy_fn_")));
decltype(mpi_comm_null_copy_fn_) mpi_win_null_copy_fn__
    __attribute__((alias("mpi_comm_null_copy_fn_")));
decltype(mpi_comm_dup_fn_) mpi_win_dup_fn__ __attribute__((alias("mpi_comm_dup_fn_")));
decltype(mpi_comm_null_delete_fn_) mpi_win_null_delete_fn__
    __attribute__((alias("mpi_comm_null_delete_fn_")));
decltype(mpi_comm_dup_fn_) mpi_comm_dup_fn__ __attribute__((alias("mpi_comm_dup_fn_")));
decltype(mpi_comm_null_delete_fn_) mpi_comm_null_delete_fn__
    __attribute__((alias("mpi_comm_null_delete_fn_")));
decltype(mpi_null_copy_fn_) mpi_null_copy_fn__ __attribute__((alias("mpi_null_copy_fn_")));
decltype(mpi_dup_fn_) mpi_dup_fn__ __attribute__((alias("mpi_dup_fn_")));
decltype(mpi_null_delete_fn_) mpi_null_delete_fn__ __attribute__((alias("mpi_null_delete_fn_")));
}  // extern "C"
#pragma GCC visibility pop

namespace simmpi::mpi::fortran::custom {
namespace {

// What a keyval created from Fortran carries as its C extra_state: the Fortran callbacks and the
// program's own extra state. Never freed: the callbacks may still run after MPI_COMM_FREE_KEYVAL
// while attributes use the keyval, and the C layer does not say when the last one goes (a few
// words per keyval, and programs create few keyvals).
template <class Int>
struct FortranKeyval {
  using Copy = void (*)(const MPI_Fint*, const MPI_Fint*, const Int*, const Int*, Int*, MPI_Fint*,
                        MPI_Fint*);
  using Delete = void (*)(const MPI_Fint*, const MPI_Fint*, const Int*, const Int*, MPI_Fint*);
  Copy copy;
  Delete del;
  Int extra_state;
};

template <class Int>
void* to_pointer(Int v) {
  return reinterpret_cast<void*>(static_cast<MPI_Aint>(v));
}

template <class Int>
int copy_trampoline(MPI_Comm oldcomm, int keyval, void* extra, void* in, void* out, int* flag) {
  auto* k = static_cast<FortranKeyval<Int>*>(extra);
  Int value_in = static_cast<Int>(reinterpret_cast<MPI_Aint>(in)), value_out = 0;
  MPI_Fint fortran_flag = 0, ierror = MPI_SUCCESS;
  k->copy(&oldcomm, &keyval, &k->extra_state, &value_in, &value_out, &fortran_flag, &ierror);
  *flag = fortran_flag != 0;
  if (*flag) *static_cast<void**>(out) = to_pointer(value_out);
  return ierror;
}

template <class Int>
int delete_trampoline(MPI_Comm comm, int keyval, void* value, void* extra) {
  auto* k = static_cast<FortranKeyval<Int>*>(extra);
  Int v = static_cast<Int>(reinterpret_cast<MPI_Aint>(value));
  MPI_Fint ierror = MPI_SUCCESS;
  k->del(&comm, &keyval, &v, &k->extra_state, &ierror);
  return ierror;
}

using Procedure = void (*)();

template <class F>
Procedure procedure(F* f) {
  return reinterpret_cast<Procedure>(f);
}

// Creates a C keyval that runs the Fortran callbacks, or the C equivalents of the predefined ones.
template <class Int>
int create_keyval(Procedure copy_fn, Procedure delete_fn, int* keyval, const Int* extra_state,
                  int (*create)(MPI_Comm_copy_attr_function*, MPI_Comm_delete_attr_function*, int*,
                                void*)) {
  using K = FortranKeyval<Int>;
  auto* k = new K{reinterpret_cast<typename K::Copy>(copy_fn),
                  reinterpret_cast<typename K::Delete>(delete_fn), *extra_state};
  MPI_Comm_copy_attr_function* copy = copy_trampoline<Int>;
  if (copy_fn == procedure(mpi_comm_null_copy_fn_) || copy_fn == procedure(mpi_null_copy_fn_) ||
      copy_fn == procedure(mpi_win_null_copy_fn_))
    copy = MPI_COMM_NULL_COPY_FN;
  else if (copy_fn == procedure(mpi_comm_dup_fn_) || copy_fn == procedure(mpi_dup_fn_) ||
           copy_fn == procedure(mpi_win_dup_fn_))
    copy = MPI_COMM_DUP_FN;
  MPI_Comm_delete_attr_function* del = delete_trampoline<Int>;
  if (delete_fn == procedure(mpi_comm_null_delete_fn_) ||
      delete_fn == procedure(mpi_null_delete_fn_) ||
      delete_fn == procedure(mpi_win_null_delete_fn_))
    del = MPI_COMM_NULL_DELETE_FN;
  return create(copy, del, keyval, k);
}

bool is_predefined_attribute(int keyval) {
  switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
      return true;
    default:
      return false;
  }
}

// A C attribute value as Fortran sees it: the predefined ones point to their int value; the
// others hold the integer a Fortran program stored (or a C program's pointer).
MPI_Aint fortran_value(int keyval, void* value) {
  return is_predefined_attribute(keyval) ? *static_cast<const int*>(value)
                                         : reinterpret_cast<MPI_Aint>(value);
}

}  // namespace

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn,
                           MPI_Comm_delete_attr_function* delete_fn, int* keyval,
                           MPI_Aint* extra_state) {
  return create_keyval<MPI_Aint>(procedure(copy_fn), procedure(delete_fn), keyval, extra_state,
                                 ::MPI_Comm_create_keyval);
}

int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval,
                      MPI_Fint* extra_state) {
  return create_keyval<MPI_Fint>(procedure(copy_fn), procedure(delete_fn), keyval, extra_state,
                                 ::MPI_Keyval_create);
}

int MPI_Comm_set_attr(const MPI_Comm* comm, const int* keyval, MPI_Aint* value) {
  return ::MPI_Comm_set_attr(*comm, *keyval, to_pointer(*value));
}

int MPI_Comm_get_attr(const MPI_Comm* comm, const int* keyval, MPI_Aint* value, int* flag) {
  void* v = nullptr;
  int err = ::MPI_Comm_get_attr(*comm, *keyval, &v, flag);
  if (err == MPI_SUCCESS && *flag) *value = fortran_value(*keyval, v);
  return err;
}

int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn,
                          MPI_Win_delete_attr_function* delete_fn, int* keyval,
                          MPI_Aint* extra_state) {
  return create_keyval<MPI_Aint>(procedure(copy_fn), procedure(delete_fn), keyval, extra_state,
                                 ::MPI_Win_create_keyval);
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn,
                           MPI_Type_delete_attr_function* delete_fn, int* keyval,
                           MPI_Aint* extra_state) {
  return create_keyval<MPI_Aint>(procedure(copy_fn), procedure(delete_fn), keyval, extra_state,
                                 ::MPI_Type_create_keyval);
}

int MPI_Type_set_attr(const MPI_Datatype* datatype, const int* keyval, MPI_Aint* value) {
  return ::MPI_Type_set_attr(*datatype, *keyval, to_pointer(*value));
}

// Datatypes have no predefined attributes: every value is what a program stored.
int MPI_Type_get_attr(const MPI_Datatype* datatype, const int* keyval, MPI_Aint* value, int* flag) {
  void* v = nullptr;
  int err = ::MPI_Type_get_attr(*datatype, *keyval, &v, flag);
  if (err == MPI_SUCCESS && *flag) *value = reinterpret_cast<MPI_Aint>(v);
  return err;
}

int MPI_Win_set_attr(const MPI_Win* win, const int* keyval, MPI_Aint* value) {
  return ::MPI_Win_set_attr(*win, *keyval, to_pointer(*value));
}

int MPI_Win_get_attr(const MPI_Win* win, const int* keyval, MPI_Aint* value, int* flag) {
  void* v = nullptr;
  int err = ::MPI_Win_get_attr(*win, *keyval, &v, flag);
  if (err != MPI_SUCCESS || !*flag) return err;
  switch (*keyval) {
    case MPI_WIN_SIZE:
      *value = *static_cast<const MPI_Aint*>(v);
      break;
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
      *value = *static_cast<const int*>(v);
      break;
    default:  // MPI_WIN_BASE is the address itself, as are user values
      *value = reinterpret_cast<MPI_Aint>(v);
  }
  return err;
}

int MPI_Attr_put(const MPI_Comm* comm, const int* keyval, MPI_Fint* value) {
  return ::MPI_Attr_put(*comm, *keyval, to_pointer(*value));
}

int MPI_Attr_get(const MPI_Comm* comm, const int* keyval, MPI_Fint* value, int* flag) {
  void* v = nullptr;
  int err = ::MPI_Attr_get(*comm, *keyval, &v, flag);
  if (err == MPI_SUCCESS && *flag) *value = static_cast<MPI_Fint>(fortran_value(*keyval, v));
  return err;
}

int MPI_Buffer_detach(void*, int* size) {
  void* address = nullptr;
  return ::MPI_Buffer_detach(&address, size);
}

int MPI_Comm_detach_buffer(const MPI_Comm* comm, void*, int* size) {
  void* address = nullptr;
  return ::MPI_Comm_detach_buffer(*comm, &address, size);
}

int MPI_Session_detach_buffer(const MPI_Session* session, void*, int* size) {
  void* address = nullptr;
  return ::MPI_Session_detach_buffer(*session, &address, size);
}

}  // namespace simmpi::mpi::fortran::custom

// mpi_f08's forms (BIND(C) MPI_Buffer_detach_f08...): the address is a TYPE(C_PTR), returned.
#pragma GCC visibility push(default)
extern "C" {
void MPI_Buffer_detach_f08(void** buffer_addr, MPI_Fint* size, MPI_Fint* ierror) {
  MPI_Fint err = ::MPI_Buffer_detach(buffer_addr, size);
  if (ierror) *ierror = err;
}
void MPI_Comm_detach_buffer_f08(const MPI_Comm* comm, void** buffer_addr, MPI_Fint* size,
                                MPI_Fint* ierror) {
  MPI_Fint err = ::MPI_Comm_detach_buffer(*comm, buffer_addr, size);
  if (ierror) *ierror = err;
}
void MPI_Session_detach_buffer_f08(const MPI_Session* session, void** buffer_addr, MPI_Fint* size,
                                   MPI_Fint* ierror) {
  MPI_Fint err = ::MPI_Session_detach_buffer(*session, buffer_addr, size);
  if (ierror) *ierror = err;
}
}  // extern "C"
#pragma GCC visibility pop
