// SPDX-License-Identifier: Apache-2.0
// Argument checks shared by the collective entry points, and the cross-rank consistency check
// (every rank of a communicator must call the same collectives in the same order with matching
// roots, operations and sizes).
#pragma once

#include <cstddef>
#include <vector>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/reduce_op.hpp"

namespace simmpi::mpi {

// Collects the first error of a chain of checks: each check is skipped once one failed.
class CollChecks {
 public:
  CollChecks(ApiCall& call, MPI_Comm comm);
  bool ok() const { return comm_ != nullptr && error_ == MPI_SUCCESS; }
  int error() const { return comm_ ? error_ : MPI_ERR_COMM; }
  Communicator& comm() { return *comm_; }
  int rank() const { return rank_; }

  CollChecks& root(int root);
  CollChecks& count(int count, const char* what = "count");
  // Resolves `h` into `*out`.
  CollChecks& type(MPI_Datatype h, const Datatype** out);
  CollChecks& op(MPI_Op op, const Datatype* type);
  CollChecks& counts(const int* counts, int n, const char* what);
  // The communicator-wide agreement check; call last.
  CollChecks& agree(const char* call, int root, MPI_Op op, std::int64_t bytes);
  // The collective's number on its communicator (valid after agree()).
  std::uint32_t seq() const { return seq_; }

 private:
  ApiCall& call_;
  MPI_Comm handle_;
  Communicator* comm_;
  int rank_ = -1;
  int error_ = MPI_SUCCESS;
  std::uint32_t seq_ = 0;
};

// Byte counts and byte offsets of `n` blocks given in elements of `type`.
std::vector<std::size_t> to_bytes(const int* v, int n, const Datatype& type, bool offsets);
std::vector<std::size_t> uniform(int n, std::size_t value);
std::vector<std::size_t> strided(int n, std::size_t stride);

}  // namespace simmpi::mpi
