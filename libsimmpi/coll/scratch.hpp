// SPDX-License-Identifier: Apache-2.0
// Scratch space of a collective algorithm. When the data it stands in for is folded memory
// (runtime/fold: contents meaningless, never copied), so is the scratch: an algorithm that keeps
// a copy of all ranks' data (Bruck's allgather) would otherwise cost memory quadratic in the
// rank count while every rank runs it, 0.5 GB at 8,008 ranks for 8 bytes each.
#pragma once

#include <cstddef>
#include <vector>

namespace simmpi::mpi {

class Scratch {
 public:
  // `bytes` of scratch for world rank `rank`, folded when all of [like, like + like_bytes) is.
  Scratch(std::size_t bytes, const void* like, std::size_t like_bytes, int rank);
  // `bytes` of folded scratch for world rank `rank`, for a collective run only for its time.
  Scratch(std::size_t bytes, int rank);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  char* data() { return folded_ ? folded_ : own_.data(); }

 private:
  std::vector<char> own_;
  char* folded_ = nullptr;
  int rank_;
};

}  // namespace simmpi::mpi
