// SPDX-License-Identifier: Apache-2.0
// Argument checks shared by the collective entry points.
#include "libsimmpi/coll/coll_checks.hpp"

#include <string>

#include "libsimmpi/coll/intercomm_agreement.hpp"

namespace simmpi::mpi {

CollChecks::CollChecks(ApiCall& call, MPI_Comm comm, Intercomms inter)
    : call_(call), handle_(comm), comm_(call.comm(comm)) {
  if (comm_) rank_ = comm_->comm_rank(call.rank);
  if (comm_ && comm_->is_inter() && inter == Intercomms::Refused)
    error_ = call_.fail(handle_, MPI_ERR_COMM,
                        "%s is an intercommunicator; simmpi's %s takes intracommunicators only",
                        comm_->name().c_str(), call_.name);
}

CollChecks& CollChecks::root(int root) {
  rooted_ = true;
  if (!ok()) return *this;
  if (!is_inter()) {
    if (root < 0 || root >= comm_->size())
      error_ = call_.fail(handle_, MPI_ERR_ROOT, "root=%d not in [0,%d) of %s", root, comm_->size(),
                          comm_->name().c_str());
  } else if (root != MPI_ROOT && root != MPI_PROC_NULL && (root < 0 || root >= peers())) {
    error_ = call_.fail(handle_, MPI_ERR_ROOT,
                        "root=%d on intercommunicator %s: neither MPI_ROOT (the root), "
                        "MPI_PROC_NULL (the other members of its group) nor a rank of the other "
                        "group in [0,%d)",
                        root, comm_->name().c_str(), peers());
  }
  return *this;
}

CollChecks& CollChecks::no_in_place_on_inter(bool in_place, const char* arg) {
  if (ok() && in_place && is_inter())
    error_ = call_.fail(handle_, MPI_ERR_BUFFER,
                        "%s=MPI_IN_PLACE on intercommunicator %s: MPI_IN_PLACE is only an option "
                        "on intracommunicators",
                        arg, comm_->name().c_str());
  return *this;
}

CollChecks& CollChecks::intra_only() {
  if (ok() && is_inter())
    error_ = call_.fail(handle_, MPI_ERR_COMM,
                        "%s is an intercommunicator: MPI defines this collective on "
                        "intracommunicators only",
                        comm_->name().c_str());
  return *this;
}

CollChecks& CollChecks::count(int count, const char* what) {
  if (ok() && count < 0)
    error_ = call_.fail(handle_, MPI_ERR_COUNT, "%s=%d is negative", what, count);
  return *this;
}

CollChecks& CollChecks::type(MPI_Datatype h, const Datatype** out) {
  if (!ok()) return *this;
  *out = call_.datatype(h, handle_);
  if (!*out) error_ = MPI_ERR_TYPE;
  return *this;
}

CollChecks& CollChecks::op(MPI_Op op, const Datatype* type) {
  if (!ok()) return *this;
  if (!is_valid_op(op))
    error_ =
        call_.fail(handle_, MPI_ERR_OP, "op=0x%08x is not an operation", static_cast<unsigned>(op));
  else if (!op_supports(op, *type))
    error_ = call_.fail(handle_, MPI_ERR_OP, "%s is not defined for %s", op_name(op), type->name);
  return *this;
}

CollChecks& CollChecks::counts(const int* counts, int n, const char* what) {
  if (!ok()) return *this;
  if (!counts) {
    error_ = call_.fail(handle_, MPI_ERR_ARG, "%s is NULL", what);
    return *this;
  }
  for (int i = 0; i < n && ok(); ++i)
    if (counts[i] < 0)
      error_ = call_.fail(handle_, MPI_ERR_COUNT, "%s[%d]=%d is negative", what, i, counts[i]);
  return *this;
}

CollChecks& CollChecks::agree(const char* call, int root, MPI_Op op, std::int64_t bytes) {
  if (!ok()) return *this;
  const int given_root = root;
  if (is_inter() && rooted_ && (root == MPI_ROOT || root == MPI_PROC_NULL))
    root = MPI_ROOT, op = MPI_OP_NULL, bytes = -1;  // what the root's group shares
  std::string why;
  int cls = comm_->check_collective(rank_, CollectiveSignature{call, root, op, bytes}, &why);
  seq_ = comm_->collectives_entered(rank_) - 1;
  if (cls == MPI_SUCCESS && is_inter())
    cls = check_across_groups(*comm_, rank_, seq_, call, rooted_, given_root, &why);
  const bool intra_root = !comm_->is_inter() && root >= 0 && root < comm_->size();
  if (bytes >= 0 || intra_root)
    call_.note_payload(bytes, intra_root ? comm_->world_rank(root) : -1);
  if (cls != MPI_SUCCESS) error_ = call_.fail(handle_, cls, "%s", why.c_str());
  return *this;
}

std::vector<std::size_t> to_bytes(const int* v, int n, const Datatype& type, bool offsets) {
  std::vector<std::size_t> out(static_cast<std::size_t>(n));
  std::size_t unit = offsets ? static_cast<std::size_t>(type.extent) : type.size;
  for (int i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<std::size_t>(v[i]) * unit;
  return out;
}

std::vector<std::size_t> uniform(int n, std::size_t value) {
  return std::vector<std::size_t>(static_cast<std::size_t>(n), value);
}

std::vector<std::size_t> strided(int n, std::size_t stride) {
  std::vector<std::size_t> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = stride * static_cast<std::size_t>(i);
  return out;
}

}  // namespace simmpi::mpi
