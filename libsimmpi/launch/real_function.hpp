// SPDX-License-Identifier: Apache-2.0
// The C library's (or libgomp's) own definition of a function libsimmpi interposes, looked up
// on first use with dlsym(RTLD_NEXT). Constant-initialized, so it works in calls made before
// libsimmpi's initializers run, and lock-free, so OpenMP worker threads may use it at once.
#pragma once

#include <dlfcn.h>

#include <atomic>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

template <class F>
class RealFunction {
 public:
  // `library`: where to load it from when no loaded library defines it: the linker drops
  // libgomp (--as-needed) from a program whose OpenMP calls all bind to libsimmpi.
  explicit constexpr RealFunction(const char* name, const char* library = nullptr)
      : name_(name), library_(library) {}

  F get() {
    void* f = fn_.load(std::memory_order_relaxed);
    if (!f) {  // two threads may both look it up: they find the same address
      f = dlsym(RTLD_NEXT, name_);
      if (!f && library_) {
        void* lib = dlopen(library_, RTLD_NOW | RTLD_GLOBAL);
        f = lib ? dlsym(lib, name_) : nullptr;
      }
      SIMMPI_ASSERT(f, "%s is not defined by any library loaded after libsimmpi%s%s", name_,
                    library_ ? " nor by " : "", library_ ? library_ : "");
      fn_.store(f, std::memory_order_relaxed);
    }
    return reinterpret_cast<F>(f);
  }
  template <class... A>
  auto operator()(A... a) {
    return get()(a...);
  }

 private:
  const char* name_;
  const char* library_;
  std::atomic<void*> fn_{nullptr};
};

}  // namespace simmpi::mpi
