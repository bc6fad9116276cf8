// SPDX-License-Identifier: Apache-2.0
// Ranks' GPU state, stream ordering and device memory.
#include "libsimblas/cuda/gpu_runtime.hpp"

#include <algorithm>
#include <cstdlib>

#include "hardware/platform.hpp"
#include "libsimblas/core/charge.hpp"
#include "runtime/core/error.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::blas::cuda {
namespace {

// Placeholder device addresses: bit 62 set is non-canonical on x86-64 with 4- or 5-level
// paging, so a host access faults at once instead of corrupting memory.
constexpr std::uintptr_t kPlaceholderBase = std::uintptr_t{1} << 62;
constexpr std::uint64_t kAlignment = 256;

struct State {
  std::uint64_t model_serial = 0;  // the ComputeModel (simulation) this state belongs to
  std::unordered_map<int, RankGpu> ranks;
  std::map<std::uintptr_t, Allocation> allocations;
  std::uintptr_t next_placeholder = kPlaceholderBase;
};

State& state() {
  static State s;
  // A new simulation (a test builds several) starts from a clean state.
  hardware::ComputeModel* model = running_model();
  std::uint64_t serial = model ? model->serial() : s.model_serial;
  if (s.model_serial != serial) {
    for (auto& [p, a] : s.allocations)
      if (!a.placeholder) std::free(reinterpret_cast<void*>(p));
    for (auto& [rank, g] : s.ranks)
      for (CUstream_st* stream : g.streams) delete stream;
    s = State{};
    s.model_serial = serial;
  }
  return s;
}

}  // namespace

bool context(Context* out) {
  hardware::ComputeModel* model = running_model();
  if (!model || model->gpu().spec().count == 0) return false;
  int rank = runtime::Scheduler::instance()->current()->owner();  // a thread's is its rank's
  RankGpu& g = state().ranks[rank];
  if (g.default_streams.empty())
    for (int d = 0; d < model->gpu().spec().count; ++d)
      g.default_streams.push_back(
          std::make_unique<CUstream_st>(CUstream_st{rank, d, 0, true, SimTime{}}));
  *out = Context{model, rank, calling_node(), &g};
  return true;
}

CUstream_st* resolve(const Context& c, CUstream_st* handle) {
  auto h = reinterpret_cast<std::uintptr_t>(handle);
  if (h == 0 || h == 1 || h == 2) return c.gpu->default_streams[c.gpu->device].get();
  for (CUstream_st* s : c.gpu->streams)
    if (s == handle) return s;
  return nullptr;
}

SimTime done_time(const Context& c, const CUstream_st& s) {
  SimTime t = s.ready;
  if (s.flags != 0) return t;  // non-blocking streams ignore the default stream
  if (s.is_default) {
    for (const CUstream_st* o : c.gpu->streams)
      if (o->device == s.device && o->flags == 0) t = runtime::max(t, o->ready);
  } else {
    t = runtime::max(t, c.gpu->default_streams[s.device]->ready);
  }
  return t;
}

SimTime enqueue(const Context& c, CUstream_st& s, hardware::GpuDevice::Engine engine,
                SimTime duration, SimTime earliest) {
  SimTime start = runtime::max(earliest, done_time(c, s));
  s.ready = c.device(s.device).occupy(engine, start, duration);
  return s.ready;
}

SimTime host_now() {
  auto* s = runtime::Scheduler::instance();
  runtime::ScopedLibraryCall library(*s, "a CUDA call");  // the rank's own code ends here
  s->settle();
  return s->engine().now();
}

void host_spend(SimTime d) {
  auto* s = runtime::Scheduler::instance();
  runtime::ScopedLibraryCall library(*s, "a CUDA call");  // the rank's own code ends here
  s->settle();
  s->sleep_until(s->engine().now() + d);
}

void host_wait_until(SimTime t) {
  auto* s = runtime::Scheduler::instance();
  runtime::ScopedLibraryCall library(*s, "a CUDA call");  // the rank's own code ends here
  s->settle();
  if (t > s->engine().now()) s->sleep_until(t);
}

CUstream_st* create_stream(const Context& c, unsigned flags) {
  auto* s = new CUstream_st{c.rank, c.gpu->device, flags, false, SimTime{}};
  c.gpu->streams.push_back(s);
  return s;
}

bool destroy_stream(const Context& c, CUstream_st* s) {
  auto& v = c.gpu->streams;
  auto it = std::find(v.begin(), v.end(), s);
  if (it == v.end()) return false;
  // Work already enqueued still occupies the device timeline; only the handle goes.
  v.erase(it);
  delete s;
  return true;
}

bool allocate(const Context& c, std::uint64_t bytes, void** out) {
  std::uint64_t rounded =
      (std::max<std::uint64_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  if (!c.device(c.gpu->device).reserve(rounded, c.gpu_model().spec().memory_bytes)) return false;
  State& st = state();
  bool placeholder = !c.executes();
  std::uintptr_t p;
  if (placeholder) {
    p = st.next_placeholder;
    st.next_placeholder += rounded;
  } else {
    p = reinterpret_cast<std::uintptr_t>(std::aligned_alloc(kAlignment, rounded));
    if (!p) {
      c.device(c.gpu->device).release(rounded);
      return false;
    }
  }
  st.allocations[p] = Allocation{rounded, c.node, c.gpu->device, placeholder};
  *out = reinterpret_cast<void*>(p);
  return true;
}

bool release(void* ptr) {
  State& st = state();
  auto it = st.allocations.find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == st.allocations.end()) return false;
  const Allocation& a = it->second;
  if (auto* p = hardware::Platform::instance())
    p->compute().gpu_device(a.node, a.device).release(a.bytes);
  if (!a.placeholder) std::free(ptr);
  st.allocations.erase(it);
  return true;
}

const Allocation* find_allocation(const void* ptr) {
  State& st = state();
  auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto it = st.allocations.upper_bound(p);
  if (it == st.allocations.begin()) return nullptr;
  --it;
  return p < it->first + it->second.bytes ? &it->second : nullptr;
}

}  // namespace simmpi::blas::cuda
