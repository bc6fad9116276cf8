// SPDX-License-Identifier: Apache-2.0
// The Fortran sentinels' COMMON blocks and the argument conversions of the Fortran bindings.
#include "libsimmpi/fortran/fortran_args.hpp"

#include <algorithm>
#include <cstring>

#include "libsimmpi/core/api_call.hpp"

using simmpi::mpi::fortran::Priv1;
using simmpi::mpi::fortran::Priv2;
using simmpi::mpi::fortran::PrivC;

// The COMMON blocks of mpif.h and the mpi module (gfortran names /NAME/ name_). They must be
// preemptible (default visibility, reached through the GOT) so that the executable's copy, which
// is where Fortran code takes their addresses, is the one compared against.
extern "C" {
__attribute__((visibility("default"))) Priv1 mpipriv1_;
__attribute__((visibility("default"))) Priv2 mpipriv2_;
__attribute__((visibility("default"))) MPI_Fint mpifcmb5_;  // MPI_UNWEIGHTED
__attribute__((visibility("default"))) MPI_Fint mpifcmb9_;  // MPI_WEIGHTS_EMPTY
__attribute__((visibility("default"))) PrivC mpiprivc_;

// MPI_SIZEOF (both modules): the size in bytes of one element of X.
__attribute__((visibility("default"))) void simmpi_sizeof(const CFI_cdesc_t* x, MPI_Fint* size,
                                                          MPI_Fint* ierror) {
  *size = static_cast<MPI_Fint>(x->elem_len);
  if (ierror) *ierror = MPI_SUCCESS;
}

// MPI_F_SYNC_REG (mpi_f08): being an external call that receives the buffer is its whole job.
__attribute__((visibility("default"))) void simmpi_f_sync_reg(const CFI_cdesc_t*) {}

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

StringBuf::StringBuf(char* f, std::size_t f_length, MPI_Fint* length)
    : f_(f),
      f_length_(f_length),
      length_(length),
      asked_value_(*length > 0),
      c_length_(*length > 0 ? *length + 1 : *length),
      c_(static_cast<std::size_t>(std::max(c_length_, 1)), '\0') {}

StringBuf::~StringBuf() {
  *length_ = c_length_ > 0 ? c_length_ - 1 : c_length_;
  if (!asked_value_) return;
  std::size_t n = std::min(std::strlen(c_.c_str()), f_length_);
  std::memcpy(f_, c_.data(), n);
  std::memset(f_ + n, ' ', f_length_ - n);
}

namespace {

std::string without_trailing_blanks(const char* f, std::size_t length) {
  std::string s(f, length);
  std::size_t end = s.find_last_not_of(' ');
  s.resize(end == std::string::npos ? 0 : end + 1);
  return s;
}

}  // namespace

StringArray::StringArray(const char* f, std::size_t length, int count)
    : null_(f == &mpiprivc_.argv_null) {
  for (int i = 0; !null_ && (count < 0 || i < count); ++i) {
    std::string s = without_trailing_blanks(f + static_cast<std::size_t>(i) * length, length);
    if (count < 0 && s.empty()) break;
    strings_.push_back(std::move(s));
  }
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

ArgvArrays::ArgvArrays(const char* f, std::size_t length, int count)
    : null_(f == &mpiprivc_.argvs_null) {
  const std::size_t rows = null_ ? 0 : static_cast<std::size_t>(std::max(count, 0));
  argv_.reserve(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    // Element (i, j) of a (count, *) array is element i + j * count in memory: row i's strings
    // lie `count` elements apart, so they are gathered first.
    std::vector<char> row;
    for (std::size_t j = 0;; ++j) {
      const char* e = f + (i + j * rows) * length;
      if (without_trailing_blanks(e, length).empty()) break;
      row.insert(row.end(), e, e + length);
    }
    row.insert(row.end(), length, ' ');
    argv_.emplace_back(row.data(), length, -1);
  }
  for (StringArray& a : argv_) rows_.push_back(a.get());
}

int* errcodes(int* codes) {
  return codes == mpipriv2_.errcodes_ignore ? MPI_ERRCODES_IGNORE : codes;
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

namespace {

// Fortran's elements in array element order, each elem_len bytes after the one before.
bool is_contiguous(const CFI_cdesc_t& d) {
  CFI_index_t expected = static_cast<CFI_index_t>(d.elem_len);
  for (int i = 0; i < d.rank; ++i) {
    if (d.dim[i].extent == 0) return true;
    if (d.dim[i].extent > 1 && d.dim[i].sm != expected) return false;
    expected *= d.dim[i].extent;
  }
  return true;
}

}  // namespace

bool contiguous(const char* call,
                std::initializer_list<std::pair<const char*, const CFI_cdesc_t*>> buffers,
                MPI_Fint* ierror) {
  for (const auto& [name, d] : buffers) {
    if (is_contiguous(*d)) continue;
    ApiCall api(call);
    *ierror = api.fail(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                       "%s is an array section that is not contiguous; simmpi's mpi_f08 has "
                       "MPI_SUBARRAYS_SUPPORTED = .FALSE.: pass a contiguous array (or a copy)",
                       name);
    return false;
  }
  return true;
}

void to_fortran_index(int* index) {
  if (*index >= 0) ++*index;
}

void to_fortran_indices(int* indices, const int* outcount) {
  if (*outcount == MPI_UNDEFINED) return;
  for (int i = 0; i < *outcount; ++i) ++indices[i];
}

}  // namespace simmpi::mpi::fortran
