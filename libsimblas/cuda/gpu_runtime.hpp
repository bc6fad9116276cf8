// SPDX-License-Identifier: Apache-2.0
// State behind the CUDA runtime subset: each rank's current device, streams and last error,
// device allocations, and the stream-order rules on top of the device timelines of
// hardware/compute/gpu_model.hpp.
//
// Timing: an asynchronous call costs the host gpu.launch_latency; its work then starts on the
// device when the stream's previous work is done and the engine it needs (compute, or the copy
// engine of its direction) is free. The legacy default stream waits for, and is waited for by,
// every blocking stream of the rank on that device (CUDA's legacy default-stream semantics);
// cudaStreamNonBlocking streams are independent of it. Synchronizing calls let simulated time
// pass for the rank until the work they wait for ends.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "hardware/compute/compute_model.hpp"
#include "runtime/core/sim_time.hpp"

struct CUstream_st {
  int rank;
  int device;
  unsigned flags;  // cudaStreamNonBlocking or 0
  bool is_default;
  simmpi::runtime::SimTime ready;  // when the last work enqueued on it ends
};

struct CUevent_st {
  unsigned flags;
  bool recorded = false;
  simmpi::runtime::SimTime time;  // when the work before the record ends
};

namespace simmpi::blas::cuda {

using runtime::SimTime;

struct RankGpu {
  int device = 0;
  int last_error = 0;
  std::vector<std::unique_ptr<CUstream_st>> default_streams;  // one per device
  std::vector<CUstream_st*> streams;                          // created by the rank
};

// The calling rank's view of the GPUs; obtained with context(), valid during one call.
struct Context {
  hardware::ComputeModel* model;
  int rank;
  int node;
  RankGpu* gpu;

  const hardware::GpuModel& gpu_model() const { return model->gpu(); }
  hardware::GpuDevice& device(int index) const { return model->gpu_device(node, index); }
  bool executes() const { return model->executes_kernels(); }
};

// Fills the calling rank's context; false outside a rank or when the node has no GPU.
bool context(Context* out);

// The stream object a handle names for the calling rank (0, cudaStreamLegacy and
// cudaStreamPerThread: the default stream of the current device); nullptr if it is not one.
CUstream_st* resolve(const Context& c, CUstream_st* handle);
// When all work enqueued on `s` so far ends, with the legacy default-stream rule.
SimTime done_time(const Context& c, const CUstream_st& s);
// Enqueues `duration` of work on `s` using `engine`, not before `earliest`; returns its end.
SimTime enqueue(const Context& c, CUstream_st& s, hardware::GpuDevice::Engine engine,
                SimTime duration, SimTime earliest);
// The calling rank's own time, its lazily charged computations included (see
// Scheduler::sleep_lazily): the host time at which a CUDA call starts.
SimTime host_now();
// Lets simulated time pass for the calling rank: `d` of host work, or until `t`.
void host_spend(SimTime d);
void host_wait_until(SimTime t);

// New stream of the calling rank on its current device.
CUstream_st* create_stream(const Context& c, unsigned flags);
bool destroy_stream(const Context& c, CUstream_st* s);

// Device memory. In model mode addresses are placeholders from a range no host access can
// reach; in execute mode they are host memory.
struct Allocation {
  std::uint64_t bytes;
  int node;
  int device;
  bool placeholder;
};
// False when the device's memory (gpu.memory) is exhausted.
bool allocate(const Context& c, std::uint64_t bytes, void** out);
// False when `p` is not the start of a live allocation.
bool release(void* p);
// The allocation holding `p`, or nullptr for host memory.
const Allocation* find_allocation(const void* p);

}  // namespace simmpi::blas::cuda
