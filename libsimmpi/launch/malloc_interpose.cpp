// SPDX-License-Identifier: Apache-2.0
// The program's malloc, calloc, realloc and free, and simmpi.h's folding API. simmpicc links
// every program with -Wl,--wrap=malloc (and calloc, realloc, free), so the program's own calls
// (not those of the C library or of simmpi) come here: in model mode an allocation of at least
// runtime.fold_threshold bytes made by a rank is folded (runtime/fold/fold_memory.hpp), and free
// recognizes folded blocks. Everything else goes to the C library unchanged.
#include <cstdlib>
#include <cstring>

#include "runtime/fold/fold_memory.hpp"
#include "runtime/sched/scheduler.hpp"
#include "simmpi.h"

namespace {

using simmpi::runtime::FoldMemory;

// The rank running now, or -1 outside the simulation's ranks.
int running_rank() {
  auto* s = simmpi::runtime::Scheduler::instance();
  return s && s->current() ? s->current()->owner() : -1;
}

// The rank an allocation of `bytes` is folded for, or -1 when it is not folded.
int folding_rank(std::size_t bytes) {
  std::uint64_t t = FoldMemory::instance().threshold();
  return t != 0 && bytes >= t ? running_rank() : -1;
}

}  // namespace

extern "C" {

#define API __attribute__((visibility("default")))

API void* __wrap_malloc(std::size_t bytes) {
  int rank = folding_rank(bytes);
  return rank >= 0 ? FoldMemory::instance().allocate_shared(bytes, rank) : std::malloc(bytes);
}

API void* __wrap_calloc(std::size_t count, std::size_t size) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes)) return nullptr;
  int rank = folding_rank(bytes);
  // Folded memory is not zeroed: its content is meaningless by definition.
  return rank >= 0 ? FoldMemory::instance().allocate_shared(bytes, rank) : std::calloc(count, size);
}

API void __wrap_free(void* p) {
  if (!p) return;
  FoldMemory& f = FoldMemory::instance();
  if (f.active() && f.release(p, running_rank())) return;
  std::free(p);
}

API void* __wrap_realloc(void* p, std::size_t bytes) {
  if (!p) return __wrap_malloc(bytes);
  FoldMemory& f = FoldMemory::instance();
  // A private block stays private even when it grows past the threshold: its content matters.
  if (!(f.active() && f.is_folded(p))) return std::realloc(p, bytes);
  if (bytes == 0) {
    __wrap_free(p);
    return nullptr;
  }
  // A folded block's content is meaningless, so nothing is copied into the new block.
  void* q = __wrap_malloc(bytes);
  __wrap_free(p);
  return q;
}

API void* simmpi_shared_malloc(std::size_t bytes) {
  int rank = running_rank();
  return rank >= 0 ? FoldMemory::instance().allocate_shared(bytes, rank) : std::malloc(bytes);
}

API void* simmpi_partial_shared_malloc(std::size_t bytes, std::size_t private_begin,
                                       std::size_t private_end) {
  if (private_begin > private_end || private_end > bytes) return nullptr;
  if (running_rank() < 0) return std::malloc(bytes);
  return FoldMemory::instance().allocate_partial(bytes, private_begin, private_end);
}

API void simmpi_shared_free(void* p) {
  __wrap_free(p);
}

API int simmpi_is_shared(const void* p) {
  FoldMemory& f = FoldMemory::instance();
  return f.active() && f.is_folded(p) ? 1 : 0;
}

}  // extern "C"
