// SPDX-License-Identifier: Apache-2.0
// The two regions of folded memory and their allocators.
#include "runtime/fold/fold_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

// Reserves the largest region of at most `want` bytes (halving down to `least`) with `prot`.
char* reserve(std::uint64_t want, std::uint64_t least, int prot, std::uint64_t* got) {
  for (std::uint64_t size = want; size >= least; size /= 2) {
    void* p = mmap(nullptr, size, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      *got = size;
      return static_cast<char*>(p);
    }
  }
  fatal(71, strprintf("cannot reserve %llu GiB of address space for folded memory: %s",
                      static_cast<unsigned long long>(least / kGiB), std::strerror(errno)));
}

std::uint64_t round_up(std::uint64_t n, std::uint64_t unit) {
  return (n + unit - 1) / unit * unit;
}

}  // namespace

FoldMemory& FoldMemory::instance() {
  static FoldMemory* memory = new FoldMemory;  // never destroyed: ranks may free at exit
  return *memory;
}

void FoldMemory::configure(std::uint64_t threshold_bytes, std::uint64_t block_bytes, int ranks) {
  page_ = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  SIMMPI_ASSERT(block_bytes > 0 && block_bytes % page_ == 0,
                "fold block of %llu bytes is not a positive multiple of the page size",
                static_cast<unsigned long long>(block_bytes));
  SIMMPI_ASSERT(shared_mapped_ == 0 || block_bytes == block_,
                "the fold block size cannot change once blocks are mapped");
  threshold_ = threshold_bytes;
  block_ = block_bytes;
  if (rank_heaps_.size() < static_cast<std::size_t>(ranks))
    rank_heaps_.resize(static_cast<std::size_t>(ranks), OffsetHeap(shared_reserved_));
}

void FoldMemory::reserve_shared() {
  // Half of x86-64's 128 TiB of user address space at most; the ranks share it.
  shared_ = reserve(64 * 1024 * kGiB, 64 * kGiB, PROT_NONE, &shared_reserved_);
  for (OffsetHeap& h : rank_heaps_) h.set_capacity(shared_reserved_);
  fd_ = memfd_create("simmpi-folded", MFD_CLOEXEC);
  if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(block_)) != 0)
    fatal(71, strprintf("cannot create the memory file behind folded memory: %s",
                        std::strerror(errno)));
}

void FoldMemory::map_shared_until(std::uint64_t end) {
  while (shared_mapped_ < end) {
    void* p = mmap(shared_ + shared_mapped_, block_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                   fd_, 0);
    if (p == MAP_FAILED)
      fatal(71, strprintf("cannot map folded memory beyond %.1f GiB (%llu mappings of a %llu "
                          "MiB block): %s; raise runtime.fold_block so fewer mappings cover it",
                          static_cast<double>(shared_mapped_) / kGiB,
                          static_cast<unsigned long long>(shared_mapped_ / block_),
                          static_cast<unsigned long long>(block_ >> 20), std::strerror(errno)));
    shared_mapped_ += block_;
  }
}

void* FoldMemory::allocate_shared(std::size_t bytes, int rank, For use) {
  SIMMPI_ASSERT(rank >= 0 && static_cast<std::size_t>(rank) < rank_heaps_.size(),
                "folded allocation for rank %d of %zu", rank, rank_heaps_.size());
  if (!shared_) reserve_shared();
  std::uint64_t size = round_up(std::max<std::uint64_t>(bytes, 1), page_);
  std::uint64_t offset = rank_heaps_[static_cast<std::size_t>(rank)].allocate(size);
  if (offset == OffsetHeap::kFailed)
    fatal(71, strprintf("rank %d's folded memory would exceed the %llu GiB reserved for it", rank,
                        static_cast<unsigned long long>(shared_reserved_ / kGiB)));
  map_shared_until(offset + size);
  active_ = true;
  program_folded_ = program_folded_ || use == For::Program;
  return shared_ + offset;
}

void FoldMemory::reserve_partial() {
  partial_ = reserve(16 * 1024 * kGiB, 16 * kGiB, PROT_READ | PROT_WRITE, &partial_reserved_);
  partial_heap_.set_capacity(partial_reserved_);
}

void* FoldMemory::allocate_partial(std::size_t bytes, std::size_t private_begin,
                                   std::size_t private_end) {
  SIMMPI_ASSERT(private_begin <= private_end && private_end <= bytes,
                "private range [%zu, %zu) of a %zu-byte partial block", private_begin, private_end,
                bytes);
  if (!partial_) reserve_partial();
  std::uint64_t size = round_up(std::max<std::size_t>(bytes, 1), page_);
  std::uint64_t offset = partial_heap_.allocate(size);
  if (offset == OffsetHeap::kFailed)
    fatal(71, strprintf("partially folded memory would exceed the %llu GiB reserved for it",
                        static_cast<unsigned long long>(partial_reserved_ / kGiB)));
  auto base = reinterpret_cast<std::intptr_t>(partial_ + offset);
  auto add = [&](std::size_t b, std::size_t e) {
    if (b < e)
      partial_folded_[base + static_cast<std::intptr_t>(b)] = base + static_cast<std::intptr_t>(e);
  };
  add(0, private_begin);
  add(private_end, bytes);
  active_ = true;
  program_folded_ = true;
  return partial_ + offset;
}

bool FoldMemory::release(void* p, int rank) {
  auto* c = static_cast<char*>(p);
  if (shared_ && c >= shared_ && c < shared_ + shared_reserved_) {
    if (rank >= 0 && static_cast<std::size_t>(rank) < rank_heaps_.size())
      rank_heaps_[static_cast<std::size_t>(rank)].release(static_cast<std::uint64_t>(c - shared_));
    return true;
  }
  if (!partial_ || c < partial_ || c >= partial_ + partial_reserved_) return false;
  std::uint64_t size = partial_heap_.release(static_cast<std::uint64_t>(c - partial_));
  if (size == 0) return true;       // not a block start: ignore, as the shared region does
  madvise(c, size, MADV_DONTNEED);  // written pages go back to the system
  auto b = reinterpret_cast<std::intptr_t>(c);
  auto e = b + static_cast<std::intptr_t>(size);
  partial_folded_.erase(partial_folded_.lower_bound(b), partial_folded_.lower_bound(e));
  return true;
}

std::size_t FoldMemory::size_of(const void* p, int rank) const {
  auto* c = static_cast<const char*>(p);
  if (shared_ && c >= shared_ && c < shared_ + shared_reserved_ && rank >= 0 &&
      static_cast<std::size_t>(rank) < rank_heaps_.size())
    return rank_heaps_[static_cast<std::size_t>(rank)].size_at(
        static_cast<std::uint64_t>(c - shared_));
  if (partial_ && c >= partial_ && c < partial_ + partial_reserved_)
    return partial_heap_.size_at(static_cast<std::uint64_t>(c - partial_));
  return 0;
}

bool FoldMemory::is_folded(const void* p, std::size_t bytes) const {
  if (!active_ || bytes == 0) return false;
  bool any_unfolded = false;
  for_each_unfolded(reinterpret_cast<std::intptr_t>(p), bytes,
                    [&](std::intptr_t, std::uint64_t) { any_unfolded = true; });
  return !any_unfolded;
}

void FoldMemory::folded_within(std::intptr_t addr, std::intptr_t end,
                               std::vector<Interval>& out) const {
  auto sb = reinterpret_cast<std::intptr_t>(shared_);
  auto se = sb + static_cast<std::intptr_t>(shared_reserved_);
  if (shared_ && addr < se && end > sb) out.push_back({sb, se});
  auto pb = reinterpret_cast<std::intptr_t>(partial_);
  if (!partial_ || end <= pb || addr >= pb + static_cast<std::intptr_t>(partial_reserved_)) return;
  auto it = partial_folded_.upper_bound(addr);
  if (it != partial_folded_.begin() && std::prev(it)->second > addr) --it;
  for (; it != partial_folded_.end() && it->first < end; ++it)
    out.push_back({it->first, it->second});
  // The shared region and the partial one are disjoint, so sorting is only needed with both.
  if (out.size() > 1)
    std::sort(out.begin(), out.end(), [](Interval a, Interval b) { return a.begin < b.begin; });
}

}  // namespace simmpi::runtime
