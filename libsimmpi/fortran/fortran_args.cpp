// SPDX-License-Identifier: Apache-2.0
// The Fortran sentinels' COMMON blocks and the argument conversions of the Fortran bindings.
#include "libsimmpi/fortran/fortran_args.hpp"

#include <algorithm>
#include <cstring>

#include "libsimmpi/core/api_call.hpp"

using simmpi::mpi::fortran::Priv1;
using simmpi::mpi::fortran::Priv2;

// The COMMON blocks of mpif.h and the mpi module (gfortran names /NAME/ name_). They must be
// preemptible (default visibility, reached through the GOT) so that the executable's copy, which
// is where Fortran code takes their addresses, is the one compared against.
extern "C" {
__attribute__((visibility("default"))) Priv1 mpipriv1_;
__attribute__((visibility("default"))) Priv2 mpipriv2_;
__attribute__((visibility("default"))) MPI_Fint mpifcmb5_;  // MPI_UNWEIGHTED
__attribute__((visibility("default"))) MPI_Fint mpifcmb9_;  // MPI_WEIGHTS_EMPTY
__attribute__((visibility("default"))) char mpiprivc_[2];   // MPI_ARGVS_NULL, MPI_ARGV_NULL

__attribute__((visibility("default"))) MPI_Fint* simmpi_f_status_ignore(void) {
  return mpipriv1_.status_ignore;
}
__attribute__((visibility("default"))) MPI_Fint* simmpi_f_statuses_ignore(void) {
  return mpipriv2_.statuses_ignore;
}
}  // extern "C"

namespace simmpi::mpi::fortran {

void* choice(void* buf) {
  if (buf == &mpipriv1_.bottom) return MPI_BOTTOM;
  if (buf == &mpipriv1_.in_place) return MPI_IN_PLACE;
  return buf;
}

int* weights(int* w) {
  if (w == &mpifcmb5_) return MPI_UNWEIGHTED;
  if (w == &mpifcmb9_) return MPI_WEIGHTS_EMPTY;
  return w;
}

const int* weights(const int* w) {
  return weights(const_cast<int*>(w));
}

bool is_status_ignore(const MPI_Fint* f) {
  return f == mpipriv1_.status_ignore;
}
bool is_statuses_ignore(const MPI_Fint* f) {
  return f == mpipriv2_.statuses_ignore;
}

// Statuses are copied, not cast: a Fortran INTEGER array is only 4-byte aligned.
StatusOut::StatusOut(MPI_Fint* f) : f_(is_status_ignore(f) ? nullptr : f) {
  if (f_) std::memcpy(&c_, f_, sizeof c_);
}

StatusOut::~StatusOut() {
  if (f_) std::memcpy(f_, &c_, sizeof c_);
}

StatusIn::StatusIn(const MPI_Fint* f) {
  std::memcpy(&c_, f, sizeof c_);
}

Statuses::Statuses(MPI_Fint* f, int count)
    : f_(is_statuses_ignore(f) ? nullptr : f),
      count_(static_cast<std::size_t>(std::max(count, 0))),
      c_(std::max<std::size_t>(count_, 1)) {
  if (f_) std::memcpy(c_.data(), f_, count_ * sizeof(MPI_Status));
}

Statuses::~Statuses() {
  if (f_) std::memcpy(f_, c_.data(), count_ * sizeof(MPI_Status));
}

StringIn::StringIn(const char* f, std::size_t length) : c_(f, length) {
  std::size_t end = c_.find_last_not_of(' ');
  c_.resize(end == std::string::npos ? 0 : end + 1);
}

StringOut::StringOut(char* f, std::size_t length)
    : f_(f), length_(length), c_(std::max<std::size_t>(length, MPI_MAX_INFO_VAL) + 1, '\0') {}

StringOut::~StringOut() {
  std::size_t n = std::min(std::strlen(c_.c_str()), length_);
  std::memcpy(f_, c_.data(), n);
  std::memset(f_ + n, ' ', length_ - n);
}

WideArray::WideArray(const MPI_Fint* f, int count) : c_(f, f + std::max(count, 0)) {}

void narrow(const char* call, MPI_Aint value, MPI_Fint* out, MPI_Fint* ierror) {
  *out = static_cast<MPI_Fint>(value);
  if (*ierror != MPI_SUCCESS || *out == value) return;
  ApiCall api(call);
  *ierror = api.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "the result %ld does not fit a Fortran INTEGER; call the MPI-2 form with an "
                     "INTEGER(KIND=MPI_ADDRESS_KIND) argument instead",
                     value);
}

void to_fortran_index(int* index) {
  if (*index >= 0) ++*index;
}

void to_fortran_indices(int* indices, const int* outcount) {
  if (*outcount == MPI_UNDEFINED) return;
  for (int i = 0; i < *outcount; ++i) ++indices[i];
}

}  // namespace simmpi::mpi::fortran
