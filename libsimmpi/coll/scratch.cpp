// SPDX-License-Identifier: Apache-2.0
// Scratch space that is folded when the data it stands in for is.
#include "libsimmpi/coll/scratch.hpp"

#include "runtime/fold/fold_memory.hpp"

namespace simmpi::mpi {

Scratch::Scratch(std::size_t bytes, const void* like, std::size_t like_bytes, int rank)
    : rank_(rank) {
  if (runtime::FoldMemory::instance().is_folded(like, like_bytes))
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
