// SPDX-License-Identifier: Apache-2.0
// Scratch space that is folded when the data it stands in for is.
#include "libsimmpi/coll/scratch.hpp"

#include <cstdint>

#include "runtime/fold/fold_memory.hpp"

namespace simmpi::mpi {

namespace {

bool wholly_folded(const void* p, std::size_t bytes) {
  const runtime::FoldMemory& fold = runtime::FoldMemory::instance();
  if (!fold.active() || bytes == 0) return false;
  bool any_unfolded = false;
  fold.for_each_unfolded(reinterpret_cast<std::intptr_t>(p), bytes,
                         [&](std::intptr_t, std::uint64_t) { any_unfolded = true; });
  return !any_unfolded;
}

}  // namespace

Scratch::Scratch(std::size_t bytes, const void* like, std::size_t like_bytes, int rank)
    : rank_(rank) {
  if (wholly_folded(like, like_bytes))
    folded_ = static_cast<char*>(runtime::FoldMemory::instance().allocate_shared(
        bytes, rank, runtime::FoldMemory::For::Scratch));
  else
    own_.resize(bytes);
}

Scratch::Scratch(std::size_t bytes, int rank)
    : folded_(static_cast<char*>(runtime::FoldMemory::instance().allocate_shared(
          bytes, rank, runtime::FoldMemory::For::Scratch))),
      rank_(rank) {}

Scratch::~Scratch() {
  if (folded_) runtime::FoldMemory::instance().release(folded_, rank_);
}

}  // namespace simmpi::mpi
