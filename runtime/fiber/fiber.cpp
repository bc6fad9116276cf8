// SPDX-License-Identifier: Apache-2.0
// Fiber switching over boost::context::detail::{make,jump}_fcontext.
#include "runtime/fiber/fiber.hpp"

#include <boost/context/detail/fcontext.hpp>

namespace simmpi::runtime {
namespace ctx = boost::context::detail;

namespace detail {
struct FiberAccess {
  // First code run on a new fiber's stack. `t.fctx` is the context that resumed it.
  static void entry(ctx::transfer_t t) {
    auto* f = static_cast<Fiber*>(t.data);
    f->caller_ = t.fctx;
    f->entry_(f->arg_);
    f->finished_ = true;
    ctx::jump_fcontext(f->caller_, nullptr);  // never returns: nobody resumes a finished fiber
    __builtin_unreachable();
  }
};
}  // namespace detail

Fiber::Fiber(void* stack_top, std::size_t stack_bytes, Entry entry, void* arg)
    : entry_(entry), arg_(arg) {
  self_ = ctx::make_fcontext(stack_top, stack_bytes, &detail::FiberAccess::entry);
}

void Fiber::resume() {
  ctx::transfer_t t = ctx::jump_fcontext(self_, this);
  self_ = t.fctx;  // where the fiber paused
}

void Fiber::yield() {
  ctx::transfer_t t = ctx::jump_fcontext(caller_, nullptr);
  caller_ = t.fctx;  // whoever resumed us this time
}

}  // namespace simmpi::runtime
