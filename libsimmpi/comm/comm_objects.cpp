// SPDX-License-Identifier: Apache-2.0
// The per-rank object tables of the communicator layer.
#include "libsimmpi/comm/comm_objects.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

CommObjects* CommObjects::instance_ = nullptr;

CommObjects::CommObjects(int slots, int universe_size)
    : ranks_(static_cast<std::size_t>(slots)), universe_size_(universe_size) {
  instance_ = this;
}

CommObjects::~CommObjects() {
  if (instance_ == this) instance_ = nullptr;
}

CommObjects& CommObjects::get() {
  SIMMPI_ASSERT(instance_, "the communicator objects exist while a job runs");
  return *instance_;
}

RankObjects& CommObjects::rank(int world_rank) {
  auto& slot = ranks_[static_cast<std::size_t>(world_rank)];
  if (!slot) slot = std::make_unique<RankObjects>();
  return *slot;
}

}  // namespace simmpi::mpi
