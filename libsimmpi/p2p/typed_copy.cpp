// SPDX-License-Identifier: Apache-2.0
// Typed copies between ranks' memories, skipping folded memory.
#include "libsimmpi/p2p/typed_copy.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/fold/fold_memory.hpp"

namespace simmpi::mpi {
namespace {

// The parts of a buffer its first `bytes` packed bytes go to, less folded memory. In packed
// order.
struct Piece {
  std::uint64_t offset;  // in the packed stream
  std::intptr_t addr;
  std::uint64_t len;
};
const std::vector<Piece>& unfolded_pieces(const TypedBuffer& b, std::uint64_t bytes) {
  thread_local std::vector<Piece> pieces;
  pieces.clear();
  const runtime::FoldMemory& fold = runtime::FoldMemory::instance();
  std::uint64_t offset = 0;
  b.type->map.for_each_block(
      reinterpret_cast<std::intptr_t>(b.buf), b.count, b.type->extent, bytes,
      [&](std::intptr_t block, std::uint64_t len) {
        fold.for_each_unfolded(block, len, [&](std::intptr_t at, std::uint64_t n) {
          pieces.push_back({offset + static_cast<std::uint64_t>(at - block), at, n});
        });
        offset += len;
      });
  return pieces;
}

// With folded memory about: copies the bytes of `from` that land on unfolded parts of `to`,
// block against piece, without packing the rest.
void copy_unfolded(World& w, const TypedBuffer& from, const TypedBuffer& to, std::uint64_t bytes) {
  const std::vector<Piece>& pieces = unfolded_pieces(to, bytes);
  if (pieces.empty()) return;
  RankMemory src(w, from.rank), dst(w, to.rank);
  std::size_t i = 0;
  std::uint64_t offset = 0;
  from.type->map.for_each_block(
      reinterpret_cast<std::intptr_t>(from.buf), from.count, from.type->extent, bytes,
      [&](std::intptr_t block, std::uint64_t len) {
        std::uint64_t end = offset + len;
        while (i < pieces.size() && pieces[i].offset + pieces[i].len <= offset) ++i;
        for (std::size_t j = i; j < pieces.size() && pieces[j].offset < end; ++j) {
          std::uint64_t lo = std::max(offset, pieces[j].offset);
          std::uint64_t hi = std::min(end, pieces[j].offset + pieces[j].len);
          std::memcpy(dst.at(pieces[j].addr + static_cast<std::intptr_t>(lo - pieces[j].offset)),
                      src.at(block + static_cast<std::intptr_t>(lo - offset)), hi - lo);
        }
        offset = end;
      });
}

}  // namespace

bool wholly_folded(const TypedBuffer& b, std::uint64_t bytes) {
  return runtime::FoldMemory::instance().active() && unfolded_pieces(b, bytes).empty();
}

void pack_typed(World& w, const TypedBuffer& from, std::uint64_t bytes, char* dst) {
  if (bytes) pack_bytes(from.buf, from.count, *from.type, bytes, dst, RankMemory(w, from.rank));
}

void unpack_typed(World& w, const char* src, std::uint64_t bytes, const TypedBuffer& to) {
  std::uint64_t n = std::min(bytes, to.bytes());
  if (n == 0) return;
  if (runtime::FoldMemory::instance().active()) {
    RankMemory mem(w, to.rank);
    for (const Piece& p : unfolded_pieces(to, n))
      std::memcpy(mem.at(p.addr), src + p.offset, p.len);
    return;
  }
  if (to.type->contiguous) {  // one block from the buffer's start: one copy
    std::memcpy(w.scheduler().privatizer().translate(to.rank, to.buf), src, n);
    return;
  }
  unpack_bytes(src, n, to.count, *to.type, to.buf, RankMemory(w, to.rank));
}

void copy_typed(World& w, const TypedBuffer& from, const TypedBuffer& to, std::uint64_t bytes) {
  if (bytes == 0) return;
  if (runtime::FoldMemory::instance().active()) {
    copy_unfolded(w, from, to, bytes);
    return;
  }
  if (from.type->contiguous) {
    runtime::Privatizer& privatizer = w.scheduler().privatizer();
    const void* src = privatizer.translate(from.rank, from.buf);
    if (to.type->contiguous) {  // one block to one block: one copy (unpack_typed's, inline)
      if (const std::uint64_t n = std::min(bytes, to.bytes()))
        std::memcpy(privatizer.translate(to.rank, to.buf), src, n);
      return;
    }
    unpack_typed(w, static_cast<const char*>(src), bytes, to);
    return;
  }
  std::unique_ptr<char[]> packed(new char[bytes]);
  pack_typed(w, from, bytes, packed.get());
  unpack_typed(w, packed.get(), bytes, to);
}

}  // namespace simmpi::mpi
