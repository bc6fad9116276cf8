// SPDX-License-Identifier: Apache-2.0
// What the Fortran bindings (generated from bindings.tbl into fortran_bindings.cpp) convert
// between a Fortran caller and the C functions of mpi.h:
//  - sentinels: MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE, MPI_UNWEIGHTED... are Fortran
//    variables in COMMON blocks (declared by mpif.h and the mpi module, as MPICH does); a binding
//    recognizes them by address and passes C's value instead;
//  - statuses: INTEGER status(MPI_STATUS_SIZE) holds the bytes of a C MPI_Status (SOURCE, TAG,
//    ERROR, cancelled, then the received byte count in two elements), copied through an aligned
//    C status;
//  - strings: CHARACTER arguments come with a hidden length and no terminating NUL; results are
//    padded with blanks;
//  - indices: Fortran counts request indices from 1;
//  - mpi_f08's buffers: C descriptors, which must be contiguous.
// Nothing here yields; the C calls made between these conversions may.
#pragma once

#include <ISO_Fortran_binding.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "mpi.h"

static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
              "a Fortran status holds exactly the bytes of a C MPI_Status");
static_assert(sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8,
              "MPI_ADDRESS_KIND, MPI_COUNT_KIND and MPI_OFFSET_KIND are 8");

namespace simmpi::mpi::fortran {

// The sentinels' storage. In a program that includes mpif.h or uses the mpi module, the
// executable defines these COMMON blocks and the library's references bind to that copy; in a
// C program they stay here, unused.
struct Priv1 {  // COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE
  MPI_Fint bottom;
  MPI_Fint in_place;
  MPI_Fint status_ignore[MPI_F_STATUS_SIZE];
};
struct Priv2 {  // COMMON /MPIPRIV2/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE
  MPI_Fint statuses_ignore[MPI_F_STATUS_SIZE];
  MPI_Fint errcodes_ignore[1];
};
struct PrivC {  // COMMON /MPIPRIVC/ MPI_ARGVS_NULL, MPI_ARGV_NULL (CHARACTER*1 each)
  char argvs_null;
  char argv_null;
};

// A buffer argument: Fortran's MPI_BOTTOM and MPI_IN_PLACE become C's.
void* choice(void* buf);
// A weights argument: Fortran's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become C's.
int* weights(int* w);
const int* weights(const int* w);
bool is_status_ignore(const MPI_Fint* f);
bool is_statuses_ignore(const MPI_Fint* f);

// A status the C call writes: copied into the Fortran array when this goes out of scope.
class StatusOut {
 public:
  explicit StatusOut(MPI_Fint* f);
  ~StatusOut();
  StatusOut(const StatusOut&) = delete;
  StatusOut& operator=(const StatusOut&) = delete;
  MPI_Status* get() { return f_ ? &c_ : MPI_STATUS_IGNORE; }

 private:
  MPI_Fint* f_;  // nullptr for MPI_STATUS_IGNORE
  MPI_Status c_;
};

// A status the C call reads.
class StatusIn {
 public:
  explicit StatusIn(const MPI_Fint* f);
  const MPI_Status* get() const { return &c_; }

 private:
  MPI_Status c_;
};

// `count` statuses (array_of_statuses(MPI_STATUS_SIZE, count)), copied in and back out.
class Statuses {
 public:
  Statuses(MPI_Fint* f, int count);
  ~Statuses();
  Statuses(const Statuses&) = delete;
  Statuses& operator=(const Statuses&) = delete;
  MPI_Status* get() { return f_ ? c_.data() : MPI_STATUSES_IGNORE; }

 private:
  MPI_Fint* f_;  // nullptr for MPI_STATUSES_IGNORE
  std::size_t count_;
  std::vector<MPI_Status> c_;  // never empty, so that C never sees a null array
};

// A CHARACTER*(*) argument read by C: trailing blanks dropped, NUL added.
class StringIn {
 public:
  StringIn(const char* f, std::size_t length);
  const char* get() const { return c_.c_str(); }

 private:
  std::string c_;
};

// A CHARACTER*(*) argument written by C (at most MPI_MAX_INFO_VAL characters and a NUL): copied
// into the Fortran variable, truncated or padded with blanks, when this goes out of scope.
class StringOut {
 public:
  StringOut(char* f, std::size_t length);
  ~StringOut();
  StringOut(const StringOut&) = delete;
  StringOut& operator=(const StringOut&) = delete;
  char* get() { return c_.data(); }

 private:
  char* f_;
  std::size_t length_;
  std::string c_;
};

// A CHARACTER*(*) result whose length is an INTEGER argument `length` (MPI_INFO_GET_STRING's
// buflen, MPI_SESSION_GET_NTH_PSET's pset_len): Fortran's length leaves out the NUL that C's
// counts, on input (the room in the variable; 0 asks only for the length) and on output (the
// value's length). The value is copied into the variable, padded with blanks, when this goes
// out of scope (with an input length above 0).
class StringBuf {
 public:
  StringBuf(char* f, std::size_t f_length, MPI_Fint* length);
  ~StringBuf();
  StringBuf(const StringBuf&) = delete;
  StringBuf& operator=(const StringBuf&) = delete;
  char* get() { return c_.data(); }
  int* c_length() { return &c_length_; }

 private:
  char* f_;
  std::size_t f_length_;
  MPI_Fint* length_;
  bool asked_value_;  // a length of 0 asks for the length only: the variable is left alone
  int c_length_;
  std::string c_;
};

// An array of CHARACTER*(*) strings read by C, all of one hidden length: `count` of them, or,
// with count -1, those before the first blank one (MPI_COMM_SPAWN's argv); trailing blanks
// dropped. MPI_ARGV_NULL becomes C's.
class StringArray {
 public:
  StringArray(const char* f, std::size_t length, int count);
  char** get() { return null_ ? MPI_ARGV_NULL : pointers_.data(); }

 private:
  bool null_;
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;  // NULL-terminated
};

// MPI_COMM_SPAWN_MULTIPLE's array_of_argv(count, *): row i is command i's arguments, ended by a
// blank element (MPI-3.1 10.3.3). MPI_ARGVS_NULL becomes C's.
class ArgvArrays {
 public:
  ArgvArrays(const char* f, std::size_t length, int count);
  char*** get() { return null_ ? MPI_ARGVS_NULL : rows_.data(); }

 private:
  bool null_;
  std::vector<StringArray> argv_;
  std::vector<char**> rows_;
};

// array_of_errcodes: Fortran's MPI_ERRCODES_IGNORE becomes C's.
int* errcodes(int* codes);

// INTEGER displacements of the MPI-1 constructors (MPI_TYPE_HINDEXED, MPI_TYPE_STRUCT), widened
// to MPI_Aint.
class WideArray {
 public:
  WideArray(const MPI_Fint* f, int count);
  const MPI_Aint* get() const { return c_.data(); }

 private:
  std::vector<MPI_Aint> c_;
};

// Stores `value` into the INTEGER `out` of the MPI-1 call `call` (MPI_ADDRESS, MPI_TYPE_EXTENT...)
// when it fits; when not, raises MPI_ERR_ARG on MPI_COMM_WORLD into `ierror`.
void narrow(const char* call, MPI_Aint value, MPI_Fint* out, MPI_Fint* ierror);

// mpi_f08's buffers arrive as C descriptors (TYPE(*), DIMENSION(..)). Whether each (named) is
// contiguous; if one is not (an array section with a stride), raises MPI_ERR_BUFFER on
// MPI_COMM_WORLD into `ierror`, naming it: simmpi's MPI_SUBARRAYS_SUPPORTED is .FALSE.
bool contiguous(const char* call,
                std::initializer_list<std::pair<const char*, const CFI_cdesc_t*>> buffers,
                MPI_Fint* ierror);

// 0-based C request indices to 1-based Fortran ones (MPI_UNDEFINED stays).
void to_fortran_index(int* index);
void to_fortran_indices(int* indices, const int* outcount);

}  // namespace simmpi::mpi::fortran
