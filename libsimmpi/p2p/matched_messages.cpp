// SPDX-License-Identifier: Apache-2.0
// The per-rank tables of matched messages.
#include "libsimmpi/p2p/matched_messages.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

MatchedMessages* MatchedMessages::instance_ = nullptr;

MatchedMessages::MatchedMessages(int ranks) : ranks_(static_cast<std::size_t>(ranks)) {
  instance_ = this;
}

MatchedMessages::~MatchedMessages() {
  if (instance_ == this) instance_ = nullptr;
}

MatchedMessages& MatchedMessages::get() {
  SIMMPI_ASSERT(instance_, "the matched-message tables exist while a job runs");
  return *instance_;
}

MPI_Message MatchedMessages::add(int world_rank, Entry e) {
  auto& table = ranks_[static_cast<std::size_t>(world_rank)];
  // Index 1 is MPI_MESSAGE_NO_PROC.
  if (!table) table = std::make_unique<HandleTable<Entry>>(SIMMPI_KIND_MESSAGE, 2);
  return table->add(e);
}

MatchedMessages::Entry* MatchedMessages::find(int world_rank, MPI_Message h) {
  auto& table = ranks_[static_cast<std::size_t>(world_rank)];
  return table ? table->find(h) : nullptr;
}

void MatchedMessages::remove(int world_rank, MPI_Message h) {
  ranks_[static_cast<std::size_t>(world_rank)]->remove(h);
}

}  // namespace simmpi::mpi
