// SPDX-License-Identifier: Apache-2.0
// Stacks for many fibers carved from one memory region.
//
// The kernel allows 65,530 memory mappings per process. A separately mmap'ed stack with a guard
// page costs two, so 100,000 ranks cannot each have one (SMPI hits this wall at 16,384 ranks).
// Here every stack lives in one NORESERVE region: pages cost memory only once touched. The first
// `guard_budget` slots get an inaccessible guard page below their stack (an overflow faults at
// once and the crash handler names the rank); the others get a canary word pattern just below
// their stack instead, checked each time the fiber switches out (an overflow is reported at the
// next switch).
//
// Layout: [lead page][guard page, stack] x guard_budget [stack] x the rest. Each stack's top lies
// kCanaryBytes below the end of its slot, and those last bytes hold the canary of the slot above
// (the lead page's last bytes hold slot 0's): the canary shares the page of the stack top below
// it, which that fiber touches anyway. An unguarded slot thus costs one page of memory for a
// shallow stack, not two (a page of its own for the canary was half the memory and the page
// faults of a million-rank start-up).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace simmpi::runtime {

class StackPool {
 public:
  static constexpr std::size_t kCanaryBytes = 64;

  StackPool(std::size_t stack_bytes, std::size_t slots, std::size_t guard_budget);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  // Each slot's size (page-rounded runtime.stack_size); the usable stack is kCanaryBytes less.
  std::size_t stack_bytes() const { return stack_bytes_; }
  std::size_t slots() const { return slots_; }
  // Arms slot i's canary (unguarded slots) and returns the highest address of its stack (stacks
  // grow down), stack_bytes() - kCanaryBytes above its lowest. Done when a fiber is created, so
  // untouched slots cost no memory.
  void* prepare(std::size_t i);
  bool has_guard(std::size_t i) const { return i < guard_budget_; }
  // False when slot i's canary was overwritten: its fiber ran past the end of its stack.
  bool canary_intact(std::size_t i) const;
  // The slot whose guard page or canary holds `addr`, if any.
  std::optional<std::size_t> guard_slot(const void* addr) const;

 private:
  // Lowest address of slot i's stack: above its guard page, if it has one.
  char* stack_bottom(std::size_t i) const {
    if (i < guard_budget_) return region_ + page_ + i * (page_ + stack_bytes_) + page_;
    return unguarded_ + (i - guard_budget_) * stack_bytes_;
  }
  std::uint64_t* canary(std::size_t i) const {
    return reinterpret_cast<std::uint64_t*>(stack_bottom(i) - kCanaryBytes);
  }
  std::size_t stack_bytes_;
  std::size_t slots_;
  std::size_t guard_budget_;
  std::size_t page_;
  std::size_t total_bytes_ = 0;
  char* region_ = nullptr;
  char* unguarded_ = nullptr;  // slot guard_budget_'s stack, the first without a guard page
};

}  // namespace simmpi::runtime
