// SPDX-License-Identifier: Apache-2.0
#include "runtime/fiber/fiber.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/fiber/stack_pool.hpp"

namespace simmpi::runtime {
namespace {
struct PingState {
  Fiber* self = nullptr;
  std::vector<int>* trace = nullptr;
};
void body(void* arg) {
  auto* s = static_cast<PingState*>(arg);
  for (int i = 0; i < 3; ++i) {
    s->trace->push_back(i);
    s->self->yield();
  }
  s->trace->push_back(99);
}
}  // namespace

TEST(Fiber, AlternatesWithItsCallerUntilItReturns) {
  StackPool stacks(64 * 1024, 1, 1);
  std::vector<int> trace;
  PingState st{nullptr, &trace};
  Fiber f(stacks.prepare(0), stacks.stack_bytes(), body, &st);
  st.self = &f;
  for (int i = 0; i < 4 && !f.finished(); ++i) {
    f.resume();
    trace.push_back(-1);
  }
  EXPECT_TRUE(f.finished());
  std::vector<int> expected = {0, -1, 1, -1, 2, -1, 99, -1};
  EXPECT_EQ(trace, expected);
}

}  // namespace simmpi::runtime
