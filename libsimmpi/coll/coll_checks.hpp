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
  // Whether the call takes intercommunicators: the collectives do (MPI-4.1 6.2.2); the
  // topology, neighborhood and communicator calls that use these checks refuse them with
  // MPI_ERR_COMM.
  enum class Intercomms { Refused, Accepted };
  CollChecks(ApiCall& call, MPI_Comm comm, Intercomms inter = Intercomms::Refused);
  bool ok() const { return comm_ != nullptr && error_ == MPI_SUCCESS; }
  int error() const { return comm_ ? error_ : MPI_ERR_COMM; }
  Communicator& comm() { return *comm_; }
  int rank() const { return rank_; }
  bool is_inter() const { return comm_->is_inter(); }
  // The size of the group whose members the count and displacement arrays of alltoall(v,w),
  // allgatherv and the root's gatherv and scatterv describe: the other group on an
  // intercommunicator.
  int peers() const { return comm_->remote().size(); }
  // Whether the caller is the root of a rooted collective (MPI_ROOT on an intercommunicator).
  bool is_root(int root) const { return is_inter() ? root == MPI_ROOT : rank_ == root; }
  // Whether the caller's buffer goes to the root (all but the root's group on an
  // intercommunicator; every member on an intracommunicator).
  bool sends_to_root(int root) const { return !is_inter() || root >= 0; }

  // On an intercommunicator: MPI_ROOT, MPI_PROC_NULL, or a rank of the other group.
  CollChecks& root(int root);
  // MPI_IN_PLACE is not an option on intercommunicators (MPI-4.1 6.2.3).
  CollChecks& no_in_place_on_inter(bool in_place, const char* arg);
  // The calls MPI does not define on intercommunicators (MPI_Scan, MPI_Exscan).
  CollChecks& intra_only();
  CollChecks& count(int count, const char* what = "count");
  // Resolves `h` into `*out`.
  CollChecks& type(MPI_Datatype h, const Datatype** out);
  CollChecks& op(MPI_Op op, const Datatype* type);
  CollChecks& counts(const int* counts, int n, const char* what);
  // The communicator-wide agreement check; call last. On an intercommunicator each group checks
  // its own members (in a rooted call the root's group, MPI_ROOT and MPI_PROC_NULL, agrees on the
  // call only; the other group on the root, the operation and `bytes`), and the two groups check
  // the call and the root across (intercomm_agreement.hpp).
  CollChecks& agree(const char* call, int root, MPI_Op op, std::int64_t bytes);
  // The collective's number on its communicator (valid after agree()).
  std::uint32_t seq() const { return seq_; }

 private:
  ApiCall& call_;
  MPI_Comm handle_;
  Communicator* comm_;
  int rank_ = -1;
  bool rooted_ = false;  // root() was called
  int error_ = MPI_SUCCESS;
  std::uint32_t seq_ = 0;
};

// Byte counts and byte offsets of `n` blocks given in elements of `type`.
std::vector<std::size_t> to_bytes(const int* v, int n, const Datatype& type, bool offsets);
std::vector<std::size_t> uniform(int n, std::size_t value);
std::vector<std::size_t> strided(int n, std::size_t stride);

}  // namespace simmpi::mpi
