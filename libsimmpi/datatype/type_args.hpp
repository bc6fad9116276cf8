// SPDX-License-Identifier: Apache-2.0
// Argument checks of the datatype functions, chained like CollChecks: once one check failed the
// others are skipped. Datatype calls have no communicator, so failures go through
// MPI_COMM_WORLD's error handler (MPI-3.1 8.3), with the error class MPICH returns.
#pragma once

#include <memory>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/datatype.hpp"

namespace simmpi::mpi {

class TypeArgs {
 public:
  explicit TypeArgs(ApiCall& call, MPI_Comm comm = MPI_COMM_WORLD) : call_(call), comm_(comm) {}
  bool ok() const { return error_ == MPI_SUCCESS; }
  int error() const { return error_; }
  ApiCall& call() { return call_; }

  // MPI_ERR_COUNT when n < 0.
  TypeArgs& count(long long n, const char* what = "count");
  // MPI_ERR_ARG when v < 0.
  TypeArgs& nonnegative(long long v, const char* what);
  // MPI_ERR_ARG when `a` is NULL and n > 0.
  TypeArgs& array(const void* a, long long n, const char* what);
  // array() and every entry nonnegative (block lengths), as ints or MPI_Counts.
  template <class Length>
  TypeArgs& lengths(const Length* v, long long n, const char* what) {
    array(v, n, what);
    for (long long i = 0; ok() && i < n; ++i)
      if (v[i] < 0)
        fail(MPI_ERR_ARG, "%s[%lld]=%lld is negative", what, i, static_cast<long long>(v[i]));
    return *this;
  }
  // MPI_ERR_ARG when an output pointer is NULL.
  TypeArgs& out(const void* p, const char* what);
  // Resolves a datatype argument (committed or not) into *t; MPI_ERR_TYPE if invalid.
  TypeArgs& type(MPI_Datatype h, const char* what, const Datatype** t);
  // type() for entry i of the array `what` (named "what[i]" in the error, built only then).
  TypeArgs& type_at(MPI_Datatype h, const char* what, int i, const Datatype** t);
  // Records a failure of class `cls` (unless one was recorded already).
  TypeArgs& fail(int cls, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

  // Gives `t` its envelope and a new handle of the calling rank in *newtype.
  int publish(std::unique_ptr<Datatype> t, Envelope envelope, MPI_Datatype* newtype);

 private:
  ApiCall& call_;
  MPI_Comm comm_;
  int error_ = MPI_SUCCESS;
};

// The envelope of a constructor whose integer arguments are `counts` (count, block lengths,
// displacements in extents, strides): ints when all fit an int, else large counts (a
// large-count constructor's, MPI-4.1 5.1.13). Byte displacements are addresses either way.
Envelope counted_envelope(int combiner, const std::vector<long long>& counts,
                          std::vector<MPI_Aint> aints, std::vector<TypeRef> types);

}  // namespace simmpi::mpi
