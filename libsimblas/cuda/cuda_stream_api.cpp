// SPDX-License-Identifier: Apache-2.0
// CUDA streams and events, and simmpi_gpu_compute. A query (cudaStreamQuery, cudaEventQuery)
// costs the host one gpu.launch_latency, so a polling loop advances simulated time and ends.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "libsimblas/cuda/gpu_runtime.hpp"
#include "runtime/sched/scheduler.hpp"

namespace {

namespace c = simmpi::blas::cuda;
using simmpi::runtime::SimTime;

cudaError_t fail(const c::Context& ctx, cudaError_t e, const char* call, const char* why) {
  std::fprintf(stderr, "simmpi: %s: %s\n", call, why);
  ctx.gpu->last_error = e;
  return e;
}

// The stream a call names, or nullptr after recording the error.
CUstream_st* stream_of(const c::Context& ctx, cudaStream_t h, const char* call) {
  CUstream_st* s = c::resolve(ctx, h);
  if (!s) fail(ctx, cudaErrorInvalidResourceHandle, call, "not a stream of this rank");
  return s;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (flags & ~1u)
    return fail(ctx, cudaErrorInvalidValue, "cudaStreamCreateWithFlags", "unknown flags");
  *stream = c::create_stream(ctx, flags);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  return cudaStreamCreateWithFlags(stream, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (!c::destroy_stream(ctx, stream))
    return fail(ctx, cudaErrorInvalidResourceHandle, "cudaStreamDestroy",
                "not a stream of this rank");
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  CUstream_st* s = stream_of(ctx, stream, "cudaStreamSynchronize");
  if (!s) return cudaErrorInvalidResourceHandle;
  c::host_wait_until(c::done_time(ctx, *s));
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  CUstream_st* s = stream_of(ctx, stream, "cudaStreamQuery");
  if (!s) return cudaErrorInvalidResourceHandle;
  c::host_spend(ctx.gpu_model().spec().launch_latency);
  return c::done_time(ctx, *s) <= c::host_now() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  CUstream_st* s = stream_of(ctx, stream, "cudaStreamWaitEvent");
  if (!s || !event) return cudaErrorInvalidResourceHandle;
  if (event->recorded) s->ready = simmpi::runtime::max(s->ready, event->time);
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  *event = new CUevent_st{flags, false, SimTime{}};
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  CUstream_st* s = stream_of(ctx, stream, "cudaEventRecord");
  if (!s || !event) return cudaErrorInvalidResourceHandle;
  event->recorded = true;
  event->time = simmpi::runtime::max(c::host_now(), c::done_time(ctx, *s));
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (!event) return cudaErrorInvalidResourceHandle;
  if (event->recorded) c::host_wait_until(event->time);
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (!event) return cudaErrorInvalidResourceHandle;
  c::host_spend(ctx.gpu_model().spec().launch_latency);
  return !event->recorded || event->time <= c::host_now() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (!start || !end || !start->recorded || !end->recorded ||
      ((start->flags | end->flags) & cudaEventDisableTiming))
    return fail(ctx, cudaErrorInvalidResourceHandle, "cudaEventElapsedTime",
                "both events must be recorded, without cudaEventDisableTiming");
  *ms = static_cast<float>((end->time - start->time).seconds() * 1e3);
  return cudaSuccess;
}

cudaError_t simmpi_gpu_compute(double flops, double bytes, cudaStream_t stream) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  CUstream_st* s = stream_of(ctx, stream, "simmpi_gpu_compute");
  if (!s) return cudaErrorInvalidResourceHandle;
  if (!(flops >= 0) || !(bytes >= 0))
    return fail(ctx, cudaErrorInvalidValue, "simmpi_gpu_compute", "flops and bytes must be >= 0");
  simmpi::hardware::ComputeTask t;
  t.kernel = simmpi::hardware::Kernel::Generic;
  t.ops = flops;
  t.bytes = bytes;
  c::host_spend(ctx.gpu_model().spec().launch_latency);
  c::enqueue(ctx, *s, simmpi::hardware::GpuDevice::Engine::Compute, ctx.gpu_model().kernel_time(t),
             c::host_now());
  return cudaSuccess;
}

}  // extern "C"
