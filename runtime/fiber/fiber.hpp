// SPDX-License-Identifier: Apache-2.0
// A fiber: a function running on its own stack that can pause (yield) and be resumed.
// The only file that touches Boost.Context; it uses the fcontext layer directly (one indirect
// jump and a register save per switch), the same primitive boost::context::fiber is built on.
#pragma once

#include <cstddef>

namespace simmpi::runtime {

namespace detail {
struct FiberAccess;
}

class Fiber {
 public:
  using Entry = void (*)(void* arg);
  // The fiber does not start until the first resume(). `stack_top` is the highest address of a
  // stack of `stack_bytes` that outlives the fiber.
  Fiber(void* stack_top, std::size_t stack_bytes, Entry entry, void* arg);
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Runs the fiber until it yields or its entry function returns. Called from outside it.
  void resume();
  // Called from inside the fiber: pauses it and returns from the resume() that started it.
  void yield();
  bool finished() const { return finished_; }

 private:
  friend struct detail::FiberAccess;
  void* self_ = nullptr;    // this fiber's suspended context
  void* caller_ = nullptr;  // the context that resumed it
  Entry entry_;
  void* arg_;
  bool finished_ = false;
};

}  // namespace simmpi::runtime
