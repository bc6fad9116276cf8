// SPDX-License-Identifier: Apache-2.0
// Stacks for many fibers carved from one memory region.
//
// The kernel allows 65,530 memory mappings per process. A separately mmap'ed stack with a guard
// page costs two, so 100,000 ranks cannot each have one (SMPI hits this wall at 16,384 ranks).
// Here every stack lives in one NORESERVE region: pages cost memory only once touched. The first
// `guard_budget` slots get an inaccessible guard page (an overflow faults at once and the crash
// handler names the rank); the others get a canary word pattern at the same place, checked each
// time the fiber switches out (an overflow is reported at the next switch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace simmpi::runtime {

class StackPool {
 public:
  StackPool(std::size_t stack_bytes, std::size_t slots, std::size_t guard_budget);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  std::size_t stack_bytes() const { return stack_bytes_; }
  std::size_t slots() const { return slots_; }
  // Arms slot i's canary (unguarded slots) and returns the highest address of its stack (stacks
  // grow down). Done when a fiber is created, so untouched slots cost no memory.
  void* prepare(std::size_t i);
  bool has_guard(std::size_t i) const { return i < guard_budget_; }
  // False when slot i's canary was overwritten: its fiber ran past the end of its stack.
  bool canary_intact(std::size_t i) const;
  // The slot whose guard page or canary area holds `addr`, if any.
  std::optional<std::size_t> guard_slot(const void* addr) const;

 private:
  char* slot_base(std::size_t i) const { return region_ + i * slot_bytes_; }
  std::size_t stack_bytes_;
  std::size_t slots_;
  std::size_t guard_budget_;
  std::size_t page_;
  std::size_t slot_bytes_;  // guard page + stack
  char* region_ = nullptr;
};

}  // namespace simmpi::runtime
