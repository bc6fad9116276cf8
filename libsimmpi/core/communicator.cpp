// SPDX-License-Identifier: Apache-2.0
// Communicator rank mapping, per-rank error handlers and the collective consistency check.
#include "libsimmpi/core/communicator.hpp"

#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

Communicator::Communicator(MPI_Comm handle, int context_id, int size, std::string name)
    : handle_(handle), context_id_(context_id), size_(size), name_(std::move(name)) {}

Communicator::Communicator(MPI_Comm handle, int context_id, std::vector<int> members,
                           std::string name)
    : handle_(handle),
      context_id_(context_id),
      size_(static_cast<int>(members.size())),
      members_(std::move(members)),
      name_(std::move(name)) {
  for (int i = 0; i < size_; ++i) rank_of_[members_[static_cast<std::size_t>(i)]] = i;
}

int Communicator::comm_rank(int world_rank) const {
  if (members_.empty()) return world_rank < size_ ? world_rank : -1;
  auto it = rank_of_.find(world_rank);
  return it == rank_of_.end() ? -1 : it->second;
}

MPI_Errhandler Communicator::errhandler(int comm_rank) const {
  auto it = errhandlers_.find(comm_rank);
  return it == errhandlers_.end() ? MPI_ERRORS_ARE_FATAL : it->second;
}

void Communicator::set_errhandler(int comm_rank, MPI_Errhandler h) { errhandlers_[comm_rank] = h; }

int Communicator::check_collective(int comm_rank, const CollectiveSignature& sig,
                                   std::string* why_out) {
  if (collective_count_.empty()) collective_count_.assign(static_cast<std::size_t>(size_), 0);
  std::uint32_t n = collective_count_[static_cast<std::size_t>(comm_rank)]++;
  auto it = pending_.try_emplace(n, Pending{sig, comm_rank, 0}).first;
  Pending& p = it->second;
  std::string why;
  int cls = MPI_SUCCESS;
  const CollectiveSignature& first = p.sig;
  if (std::strcmp(first.call, sig.call) != 0) {
    cls = MPI_ERR_OTHER;
    why = strprintf("rank %d called %s while rank %d called %s", comm_rank, sig.call,
                    p.first_rank, first.call);
  } else if (first.root != sig.root) {
    cls = MPI_ERR_ROOT;
    why = strprintf("rank %d passed root=%d while rank %d passed root=%d", comm_rank, sig.root,
                    p.first_rank, first.root);
  } else if (first.op != sig.op) {
    cls = MPI_ERR_OP;
    why = strprintf("rank %d passed a different op than rank %d", comm_rank, p.first_rank);
  } else if (first.bytes >= 0 && sig.bytes >= 0 && first.bytes != sig.bytes) {
    cls = MPI_ERR_TRUNCATE;
    why = strprintf("rank %d passes %lld bytes while rank %d passes %lld bytes (counts or "
                    "datatypes differ)",
                    comm_rank, static_cast<long long>(sig.bytes), p.first_rank,
                    static_cast<long long>(first.bytes));
  }
  if (cls != MPI_SUCCESS) {
    *why_out = strprintf("mismatched collective #%u on %s: %s", n + 1, name_.c_str(), why.c_str());
    return cls;
  }
  if (++p.arrived == size_) pending_.erase(it);
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi
