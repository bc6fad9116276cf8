// SPDX-License-Identifier: Apache-2.0
// Communicator rank mapping, intercommunicator views, per-rank error handlers and names, the
// object's life, and the collective consistency check with what collectives create.
#include "libsimmpi/core/communicator.hpp"

#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

Communicator::Communicator(MPI_Comm handle, int context_id, int size, std::string name)
    : handle_(handle),
      context_id_(context_id),
      size_(size),
      name_(std::move(name)),
      active_members_(size) {}

Communicator::Communicator(MPI_Comm handle, int context_id, std::vector<int> members,
                           std::string name)
    : Communicator(handle, context_id, std::make_shared<const std::vector<int>>(std::move(members)),
                   std::move(name)) {}

Communicator::Communicator(MPI_Comm handle, int context_id, Members members, std::string name)
    : handle_(handle),
      context_id_(context_id),
      size_(members ? static_cast<int>(members->size()) : 0),
      members_(std::move(members)),
      name_(std::move(name)),
      active_members_(size_) {
  if (!members_ || size_ == 0) return;
  const std::vector<int>& m = *members_;
  first_member_ = m[0];
  member_stride_ = size_ > 1 ? m[1] - m[0] : 1;
  for (int i = 1; i < size_ && member_stride_ != 0; ++i)
    if (m[static_cast<std::size_t>(i)] - m[static_cast<std::size_t>(i) - 1] != member_stride_)
      member_stride_ = 0;
  if (member_stride_ == 0)
    for (int i = 0; i < size_; ++i) rank_of_[m[static_cast<std::size_t>(i)]] = i;
}

Communicator::~Communicator() = default;

void Communicator::set_handle(MPI_Comm h) {
  handle_ = h;
  if (owned_remote_) owned_remote_->handle_ = h;
}

int Communicator::member_rank(int world_rank) const {
  if (member_stride_ != 0) {
    const int offset = world_rank - first_member_;
    if (offset % member_stride_ != 0) return -1;
    const int r = offset / member_stride_;
    return r >= 0 && r < size_ ? r : -1;
  }
  auto it = rank_of_.find(world_rank);
  return it == rank_of_.end() ? -1 : it->second;
}

std::string Communicator::user_name(int comm_rank) const {
  auto it = user_names_.find(comm_rank);
  if (it != user_names_.end()) return it->second;
  bool predefined = handle_ == MPI_COMM_WORLD || handle_ == MPI_COMM_SELF;
  return predefined ? name_ : std::string();
}

void Communicator::set_user_name(int comm_rank, std::string name) {
  name_ = name;  // diagnostics show what the program calls it
  name_stamp_ = next_name_stamp();
  user_names_[comm_rank] = std::move(name);
}

void Communicator::pair_with(std::unique_ptr<Communicator> other) {
  SIMMPI_ASSERT(!is_inter() && !other->is_inter(), "a view is paired once");
  remote_ = other.get();
  other->remote_ = this;
  other->anchor_ = this;
  other->handle_ = handle_;
  owned_remote_ = std::move(other);
}

MPI_Errhandler Communicator::errhandler(int comm_rank) const {
  auto it = errhandlers_.find(comm_rank);
  return it == errhandlers_.end() ? MPI_ERRORS_ARE_FATAL : it->second.handle;
}

MPI_Comm_errhandler_function* Communicator::errhandler_function(int comm_rank) const {
  auto it = errhandlers_.find(comm_rank);
  return it == errhandlers_.end() ? nullptr : it->second.fn;
}

void Communicator::set_errhandler(int comm_rank, MPI_Errhandler h,
                                  MPI_Comm_errhandler_function* fn) {
  errhandlers_[comm_rank] = Handler{h, fn};
}

void Communicator::mark_freed(int comm_rank) {
  if (freed_.empty()) freed_.assign(static_cast<std::size_t>(size_), false);
  SIMMPI_ASSERT(!freed_[static_cast<std::size_t>(comm_rank)], "a member frees a communicator once");
  freed_[static_cast<std::size_t>(comm_rank)] = true;
  --active_members_;
}

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
    why = strprintf("rank %d called %s while rank %d called %s", comm_rank, sig.call, p.first_rank,
                    first.call);
  } else if (first.root != sig.root) {
    cls = MPI_ERR_ROOT;
    why = strprintf("rank %d passed root=%d while rank %d passed root=%d", comm_rank, sig.root,
                    p.first_rank, first.root);
  } else if (first.op != sig.op) {
    cls = MPI_ERR_OP;
    why = strprintf("rank %d passed a different op than rank %d", comm_rank, p.first_rank);
  } else if (first.bytes >= 0 && sig.bytes >= 0 && first.bytes != sig.bytes) {
    cls = MPI_ERR_TRUNCATE;
    why = strprintf(
        "rank %d passes %lld bytes while rank %d passes %lld bytes (counts or "
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

std::uint32_t Communicator::last_collective(int comm_rank) const {
  auto r = static_cast<std::size_t>(comm_rank);
  SIMMPI_ASSERT(!collective_count_.empty() && collective_count_[r],
                "rank %d of %s asks for its latest collective before entering one", comm_rank,
                name_.c_str());
  return collective_count_[r] - 1;
}

CreatedComms* Communicator::created(std::uint32_t seq) {
  auto it = created_.find(seq);
  return it == created_.end() ? nullptr : &it->second;
}

CreatedComms& Communicator::add_created(std::uint32_t seq, const char* call, int takers) {
  auto [it, fresh] = created_.try_emplace(seq, CreatedComms{call, {}, takers});
  SIMMPI_ASSERT(fresh, "collective #%u on %s creates its communicators once", seq + 1,
                name_.c_str());
  return it->second;
}

void Communicator::take_created(std::uint32_t seq) {
  auto it = created_.find(seq);
  SIMMPI_ASSERT(it != created_.end(), "collective #%u on %s created something", seq + 1,
                name_.c_str());
  if (--it->second.takers_left == 0) created_.erase(it);
}

}  // namespace simmpi::mpi
