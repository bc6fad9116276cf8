// SPDX-License-Identifier: Apache-2.0
// Memory folding (DESIGN.md, "Memory folding"; SMPI's shared malloc is the model). In model mode
// the content of a big array does not matter, so its pages need not be real. Two kinds:
//
//  - Shared blocks (SIMMPI_SHARED_MALLOC, and in model mode the program's allocations of at
//    least runtime.fold_threshold bytes): every page maps a page of one physical block of
//    runtime.fold_block bytes (a memory file), mapped over and over in one reserved region. Each
//    rank allocates in that region on its own, so the blocks of different ranks overlap: the
//    region is only as large as the largest rank's folded memory (Frontera's HPL: ~80 GB per
//    rank for 8,008 ranks would not fit the 128 TiB address space otherwise), and it costs one of
//    the kernel's 65,530 mappings per fold_block of it, whatever the number of ranks. Physical
//    memory: at most one block, whatever the program writes there.
//  - Partial blocks (simmpi_partial_shared_malloc): one private range, the rest folded. Each has
//    addresses of its own, in one anonymous NORESERVE region (one mapping for all of them); a
//    page costs memory only once written, and freeing gives it back.
//
// A folded range is never the destination of a message's payload copy: libsimmpi copies only
// into the ranges for_each_unfolded() yields, so the data HPL broadcasts costs no host time.
// Everything here runs on the simulator's one thread (fibers), so there is no locking.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "runtime/fold/offset_heap.hpp"

namespace simmpi::runtime {

class FoldMemory {
 public:
  // The process's folded memory.
  static FoldMemory& instance();

  // Called by the launcher before the ranks run. `threshold_bytes` 0 disables automatic
  // folding; `block_bytes` is a multiple of the page size.
  void configure(std::uint64_t threshold_bytes, std::uint64_t block_bytes, int ranks);
  // Allocations of at least this many bytes are folded automatically; 0: none.
  std::uint64_t threshold() const { return threshold_; }
  // Whether anything was ever folded (until then every query is trivially "not folded").
  bool active() const { return active_; }
  // Whether the program folded any memory (for the run's summary).
  bool program_folded() const { return program_folded_; }

  // Who asks for folded memory: the program (automatic folding, SIMMPI_SHARED_MALLOC), or
  // simmpi itself for scratch space whose contents do not matter (libsimmpi/coll/scratch.hpp).
  enum class For { Program, Scratch };
  // A shared block of `bytes` for `rank` (page-aligned, content meaningless). Ends the run with
  // a message when the address space or the mappings run out.
  void* allocate_shared(std::size_t bytes, int rank, For use = For::Program);
  // A block of `bytes` whose range [private_begin, private_end) is private memory and the rest
  // folded. Requires private_begin <= private_end <= bytes.
  void* allocate_partial(std::size_t bytes, std::size_t private_begin, std::size_t private_end);
  // Frees the folded block starting at `p`; false when `p` starts none. A shared block is
  // `rank`'s; with rank -1 (freed outside any rank) it stays allocated.
  bool release(void* p, int rank);
  // Bytes of the folded block starting at `p` (for realloc), 0 if none.
  std::size_t size_of(const void* p, int rank) const;
  // Whether all of the `bytes` bytes from `p` are folded (false for none).
  bool is_folded(const void* p, std::size_t bytes = 1) const;
  // Calls f(addr, len) for each maximal part of [addr, addr + len) that is not folded, in order.
  template <class F>
  void for_each_unfolded(std::intptr_t addr, std::uint64_t len, F&& f) const;

  // For the run's summary: the shared region's mapped size and mappings, and the block size.
  std::uint64_t shared_mapped_bytes() const { return shared_mapped_; }
  std::uint64_t mappings() const { return block_ ? shared_mapped_ / block_ : 0; }
  std::uint64_t block_bytes() const { return block_; }

 private:
  struct Interval {
    std::intptr_t begin, end;
  };
  void reserve_shared();
  void reserve_partial();
  void map_shared_until(std::uint64_t end);
  // Folded intervals meeting [addr, end), sorted.
  void folded_within(std::intptr_t addr, std::intptr_t end, std::vector<Interval>& out) const;

  std::uint64_t threshold_ = 0;
  std::uint64_t block_ = 32ull << 20;
  std::uint64_t page_ = 4096;
  bool active_ = false;
  bool program_folded_ = false;
  // Shared blocks.
  char* shared_ = nullptr;
  std::uint64_t shared_reserved_ = 0;
  std::uint64_t shared_mapped_ = 0;
  int fd_ = -1;
  std::vector<OffsetHeap> rank_heaps_;
  // Partial blocks.
  char* partial_ = nullptr;
  std::uint64_t partial_reserved_ = 0;
  OffsetHeap partial_heap_;
  std::map<std::intptr_t, std::intptr_t> partial_folded_;  // begin -> end
};

template <class F>
void FoldMemory::for_each_unfolded(std::intptr_t addr, std::uint64_t len, F&& f) const {
  if (!active_) {
    if (len) f(addr, len);
    return;
  }
  std::intptr_t end = addr + static_cast<std::intptr_t>(len);
  thread_local std::vector<Interval> folded;
  folded.clear();
  folded_within(addr, end, folded);
  std::intptr_t at = addr;
  for (const Interval& i : folded) {
    if (i.begin > at) f(at, static_cast<std::uint64_t>(i.begin - at));
    if (i.end > at) at = i.end;
  }
  if (at < end) f(at, static_cast<std::uint64_t>(end - at));
}

}  // namespace simmpi::runtime
