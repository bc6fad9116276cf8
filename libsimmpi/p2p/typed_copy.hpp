// SPDX-License-Identifier: Apache-2.0
// Moving typed data between ranks' memories, shared by point-to-point messages and one-sided
// operations: addresses are translated to the rank that owns them (its globals may live in a
// privatizer copy), derived types are walked block by block, and nothing is written into folded
// memory (runtime/fold), whose content is meaningless: skipping it is what lets a full-size HPL
// broadcast its panels, or put into a folded window, without copying.
#pragma once

#include <cstdint>

#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

// `count` elements of `type` at `buf` in the memory of world rank `rank`.
struct TypedBuffer {
  int rank = 0;
  void* buf = nullptr;
  std::int64_t count = 0;
  const Datatype* type = nullptr;
  std::uint64_t bytes() const { return type ? type->size * static_cast<std::uint64_t>(count) : 0; }
};

// A rank's memory as seen from whichever rank runs now. Translated block by block, since a
// derived type (MPI_BOTTOM with absolute addresses) may mix globals with heap and stack data.
class RankMemory final : public AddressMap {
 public:
  RankMemory(World& w, int rank) : privatizer_(w.scheduler().privatizer()), rank_(rank) {}
  char* at(std::intptr_t addr) const override {
    return static_cast<char*>(privatizer_.translate(rank_, reinterpret_cast<void*>(addr)));
  }

 private:
  runtime::Privatizer& privatizer_;
  int rank_;
};

// Whether the first `bytes` packed bytes of `b` all lie in folded memory.
bool wholly_folded(const TypedBuffer& b, std::uint64_t bytes);
// Packs the first `bytes` of `from` into `dst` (folded data included: it is merely meaningless).
void pack_typed(World& w, const TypedBuffer& from, std::uint64_t bytes, char* dst);
// Unpacks `bytes` of packed data (at most to's size) into `to`, less its folded parts; a short
// stream fills part of the last element (MPI-3.1 3.2.5).
void unpack_typed(World& w, const char* src, std::uint64_t bytes, const TypedBuffer& to);
// Copies the first `bytes` packed bytes of `from` into `to`: one copy when `from` is contiguous,
// block against piece when folded memory is about, else through a packed buffer. Never switches.
void copy_typed(World& w, const TypedBuffer& from, const TypedBuffer& to, std::uint64_t bytes);

}  // namespace simmpi::mpi
