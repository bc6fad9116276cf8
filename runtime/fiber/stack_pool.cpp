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
constexpr std::size_t kCanaryWords = 8;
}  // namespace

StackPool::StackPool(std::size_t stack_bytes, std::size_t slots, std::size_t guard_budget)
    : slots_(slots), guard_budget_(guard_budget < slots ? guard_budget : slots) {
  page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_bytes_ = (stack_bytes + page_ - 1) / page_ * page_;
  slot_bytes_ = stack_bytes_ + page_;
  std::size_t total = slot_bytes_ * slots_;
  void* p = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw ConfigError(strprintf(
        "cannot reserve %zu fiber stacks of %zu KiB (%.1f GiB of address space): %s; lower "
        "runtime.stack_size",
        slots_, stack_bytes_ / 1024, total / 1073741824.0, std::strerror(errno)));
  region_ = static_cast<char*>(p);
  for (std::size_t i = 0; i < slots_; ++i) {
    if (has_guard(i)) {
      if (mprotect(slot_base(i), page_, PROT_NONE) != 0)
        throw ConfigError(
            strprintf("cannot protect the guard page of fiber stack %zu: %s; lower "
                      "runtime.stack_guards",
                      i, std::strerror(errno)));
    }
  }
}

StackPool::~StackPool() {
  if (region_) munmap(region_, slot_bytes_ * slots_);
}

void* StackPool::prepare(std::size_t i) {
  SIMMPI_ASSERT(i < slots_, "stack slot %zu out of %zu", i, slots_);
  char* guard_end = slot_base(i) + page_;
  if (!has_guard(i)) {
    // The canary sits at the top of the slot's unprotected guard page, just below the stack.
    auto* words = reinterpret_cast<std::uint64_t*>(guard_end) - kCanaryWords;
    for (std::size_t k = 0; k < kCanaryWords; ++k) words[k] = kCanary;
  }
  return guard_end + stack_bytes_;
}

bool StackPool::canary_intact(std::size_t i) const {
  if (has_guard(i)) return true;
  auto* words = reinterpret_cast<const std::uint64_t*>(slot_base(i) + page_) - kCanaryWords;
  for (std::size_t k = 0; k < kCanaryWords; ++k)
    if (words[k] != kCanary) return false;
  return true;
}

std::optional<std::size_t> StackPool::guard_slot(const void* addr) const {
  auto a = reinterpret_cast<const char*>(addr);
  if (a < region_ || a >= region_ + slot_bytes_ * slots_) return std::nullopt;
  std::size_t i = static_cast<std::size_t>(a - region_) / slot_bytes_;
  if (a < slot_base(i) + page_) return i;
  return std::nullopt;
}

}  // namespace simmpi::runtime
