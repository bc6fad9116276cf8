// SPDX-License-Identifier: Apache-2.0
// One NORESERVE region of fiber stacks, with guard pages within a budget and canaries beyond.
#include "runtime/fiber/stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {
constexpr std::uint64_t kCanary = 0x5349'4D4D'5049'2121ULL;  // "SIMMPI!!"
constexpr std::size_t kCanaryWords = StackPool::kCanaryBytes / sizeof(std::uint64_t);
}  // namespace

StackPool::StackPool(std::size_t stack_bytes, std::size_t slots, std::size_t guard_budget)
    : slots_(slots), guard_budget_(guard_budget < slots ? guard_budget : slots) {
  page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes_ = (stack_bytes + page_ - 1) / page_ * page_;
  total_bytes_ =
      page_ + guard_budget_ * (page_ + stack_bytes_) + (slots_ - guard_budget_) * stack_bytes_;
  void* p = mmap(nullptr, total_bytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw ConfigError(strprintf(
        "cannot reserve %zu fiber stacks of %zu KiB (%.1f GiB of address space): %s; lower "
        "runtime.stack_size",
        slots_, stack_bytes_ / 1024, total_bytes_ / 1073741824.0, std::strerror(errno)));
  region_ = static_cast<char*>(p);
  unguarded_ = region_ + page_ + guard_budget_ * (page_ + stack_bytes_);
  for (std::size_t i = 0; i < guard_budget_; ++i) {
    if (mprotect(stack_bottom(i) - page_, page_, PROT_NONE) != 0)
      throw ConfigError(
          strprintf("cannot protect the guard page of fiber stack %zu: %s; lower "
                    "runtime.stack_guards",
                    i, std::strerror(errno)));
  }
}

StackPool::~StackPool() {
  if (region_) munmap(region_, total_bytes_);
}

void* StackPool::prepare(std::size_t i) {
  SIMMPI_ASSERT(i < slots_, "stack slot %zu out of %zu", i, slots_);
  if (!has_guard(i))
    for (std::size_t k = 0; k < kCanaryWords; ++k) canary(i)[k] = kCanary;
  return stack_bottom(i) + stack_bytes_ - kCanaryBytes;
}

bool StackPool::canary_intact(std::size_t i) const {
  if (has_guard(i)) return true;
  const std::uint64_t* words = canary(i);
  for (std::size_t k = 0; k < kCanaryWords; ++k)
    if (words[k] != kCanary) return false;
  return true;
}

std::optional<std::size_t> StackPool::guard_slot(const void* addr) const {
  auto a = static_cast<const char*>(addr);
  if (a < region_ || a >= region_ + total_bytes_) return std::nullopt;
  if (a >= region_ + page_ && a < unguarded_) {
    std::size_t i = static_cast<std::size_t>(a - region_ - page_) / (page_ + stack_bytes_);
    if (a < stack_bottom(i)) return i;  // its guard page
  }
  // An unguarded slot's canary lies just below its stack, at the top of the slot below (of the
  // last guarded slot, or the lead page, for the first unguarded one).
  std::size_t above =
      a < unguarded_ ? guard_budget_
                     : guard_budget_ + 1 + static_cast<std::size_t>(a - unguarded_) / stack_bytes_;
  if (above < slots_ && !has_guard(above) && a >= stack_bottom(above) - kCanaryBytes &&
      a < stack_bottom(above))
    return above;
  return std::nullopt;
}

}  // namespace simmpi::runtime
