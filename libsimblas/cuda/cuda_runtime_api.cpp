// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime entry points: devices, memory, copies, streams, events (gpu_runtime.hpp has
// the timing rules). Errors are returned as CUDA does and remembered for cudaGetLastError; a bad
// argument is also reported on stderr, naming the call, since a simulation that silently skips
// work would mislead.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"
#include "libsimblas/cuda/gpu_runtime.hpp"
#include "runtime/sched/scheduler.hpp"

namespace {

namespace c = simmpi::blas::cuda;
using Engine = simmpi::hardware::GpuDevice::Engine;
using simmpi::runtime::SimTime;

cudaError_t fail(const c::Context* ctx, cudaError_t e, const char* call, const char* why) {
  if (why) std::fprintf(stderr, "simmpi: %s: %s\n", call, why);
  if (ctx) ctx->gpu->last_error = e;
  return e;
}

// Direction of a copy, inferring cudaMemcpyDefault from the allocation table.
bool direction(cudaMemcpyKind kind, const void* dst, const void* src, cudaMemcpyKind* out) {
  if (kind == cudaMemcpyDefault) {
    bool d = c::find_allocation(dst) != nullptr, s = c::find_allocation(src) != nullptr;
    *out = s ? (d ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
             : (d ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
    return true;
  }
  *out = kind;
  return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDeviceToDevice;
}

// A copy of `height` rows of `width` bytes. Host-to-host copies are CPU work; the others are
// enqueued on `stream` (after the host's launch latency) and, when `sync`, waited for.
cudaError_t copy(const char* call, void* dst, std::size_t dpitch, const void* src,
                 std::size_t spitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                 cudaStream_t stream, bool sync) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  cudaMemcpyKind dir;
  if (!direction(kind, dst, src, &dir))
    return fail(&ctx, cudaErrorInvalidMemcpyDirection, call, "kind is not a cudaMemcpyKind");
  if (width > dpitch || width > spitch)
    return fail(&ctx, cudaErrorInvalidValue, call, "width exceeds a pitch");
  CUstream_st* s = c::resolve(ctx, stream);
  if (!s) return fail(&ctx, cudaErrorInvalidResourceHandle, call, "unknown stream");
  double bytes = static_cast<double>(width) * static_cast<double>(height);
  bool execute = dir == cudaMemcpyHostToHost
                     ? static_cast<bool>(simmpi::blas::charge(simmpi::blas::cost::memcopy(bytes)))
                     : ctx.executes();
  if (dir != cudaMemcpyHostToHost) {
    const auto& gpu = ctx.gpu_model();
    c::host_spend(gpu.spec().launch_latency);
    auto ck = dir == cudaMemcpyHostToDevice   ? simmpi::hardware::CopyKind::HostToDevice
              : dir == cudaMemcpyDeviceToHost ? simmpi::hardware::CopyKind::DeviceToHost
                                              : simmpi::hardware::CopyKind::DeviceToDevice;
    Engine e = dir == cudaMemcpyHostToDevice   ? Engine::HostToDevice
               : dir == cudaMemcpyDeviceToHost ? Engine::DeviceToHost
                                               : Engine::Compute;
    SimTime end =
        c::enqueue(ctx, *s, e, gpu.copy_time(static_cast<std::uint64_t>(bytes), ck), c::host_now());
    if (sync) c::host_wait_until(end);
  }
  if (execute)
    for (std::size_t r = 0; r < height; ++r)
      std::memcpy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch,
                  width);
  return cudaSuccess;
}

cudaError_t memset_on(const char* call, void* p, int value, std::size_t count, cudaStream_t stream,
                      bool sync) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (count && !c::find_allocation(p))
    return fail(&ctx, cudaErrorInvalidValue, call, "pointer is not device memory");
  CUstream_st* s = c::resolve(ctx, stream);
  if (!s) return fail(&ctx, cudaErrorInvalidResourceHandle, call, "unknown stream");
  c::host_spend(ctx.gpu_model().spec().launch_latency);
  SimTime d = ctx.gpu_model().kernel_time(simmpi::blas::cost::memset(static_cast<double>(count)));
  SimTime end = c::enqueue(ctx, *s, Engine::Compute, d, c::host_now());
  if (sync) c::host_wait_until(end);
  if (ctx.executes()) std::memset(p, value, count);
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  c::Context ctx;
  *count = c::context(&ctx) ? ctx.gpu_model().spec().count : 0;
  return *count ? cudaSuccess : cudaErrorNoDevice;
}

cudaError_t cudaSetDevice(int device) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (device < 0 || device >= ctx.gpu_model().spec().count)
    return fail(&ctx, cudaErrorInvalidDevice, "cudaSetDevice", "no such device (see gpu.count)");
  ctx.gpu->device = device;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  *device = ctx.gpu->device;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  const auto& g = ctx.gpu_model().spec();
  if (device < 0 || device >= g.count)
    return fail(&ctx, cudaErrorInvalidDevice, "cudaGetDeviceProperties", "no such device");
  std::memset(prop, 0, sizeof *prop);
  std::snprintf(prop->name, sizeof prop->name, "simmpi GPU (%.3g Tflops FP64, %.3g TB/s)",
                g.peak_flops / 1e12, g.memory_Bps / 1e12);
  prop->totalGlobalMem = g.memory_bytes;
  prop->sharedMemPerBlock = 48 * 1024;
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024, prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647, prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
  prop->clockRate = 1980000;
  prop->major = 9;
  prop->multiProcessorCount = 132;
  prop->l2CacheSize = 50 * 1024 * 1024;
  prop->concurrentKernels = 1;
  prop->asyncEngineCount = 2;
  prop->unifiedAddressing = 1;
  prop->pciDeviceID = device;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  SimTime t = c::done_time(ctx, *ctx.gpu->default_streams[ctx.gpu->device]);
  for (CUstream_st* s : ctx.gpu->streams)
    if (s->device == ctx.gpu->device) t = simmpi::runtime::max(t, s->ready);
  c::host_wait_until(t);
  return cudaSuccess;
}

cudaError_t cudaDeviceReset(void) {
  return cudaDeviceSynchronize();
}

cudaError_t cudaGetLastError(void) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  auto e = static_cast<cudaError_t>(ctx.gpu->last_error);
  ctx.gpu->last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError(void) {
  c::Context ctx;
  return c::context(&ctx) ? static_cast<cudaError_t>(ctx.gpu->last_error) : cudaErrorNoDevice;
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError:
      return "cudaErrorInitializationError";
    case cudaErrorInvalidMemcpyDirection:
      return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice:
      return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice:
      return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle:
      return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady:
      return "cudaErrorNotReady";
    case cudaErrorNotSupported:
      return "cudaErrorNotSupported";
    case cudaErrorUnknown:
      return "cudaErrorUnknown";
  }
  return "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorMemoryAllocation:
      return "out of memory (gpu.memory)";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected (gpu.count is 0)";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorNotReady:
      return "device not ready";
    default:
      return cudaGetErrorName(e);
  }
}

cudaError_t cudaDriverGetVersion(int* v) {
  return *v = CUDART_VERSION, cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
  return *v = CUDART_VERSION, cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, size_t size) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (!c::allocate(ctx, size, ptr))
    return fail(&ctx, cudaErrorMemoryAllocation, "cudaMalloc", nullptr);
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  if (!c::release(ptr))
    return fail(&ctx, cudaErrorInvalidValue, "cudaFree", "not a cudaMalloc'd pointer");
  return cudaSuccess;
}

// Pinned host memory is host memory: the program reads and writes it.
cudaError_t cudaMallocHost(void** ptr, size_t size) {
  *ptr = std::malloc(size ? size : 1);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) {
  return cudaMallocHost(ptr, size);
}
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  c::Context ctx;
  if (!c::context(&ctx)) return cudaErrorNoDevice;
  *total_bytes = ctx.gpu_model().spec().memory_bytes;
  *free_bytes = *total_bytes - ctx.device(ctx.gpu->device).used_bytes();
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, enum cudaMemcpyKind kind) {
  return copy("cudaMemcpy", dst, n, src, n, n, 1, kind, nullptr, true);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  return copy("cudaMemcpyAsync", dst, n, src, n, n, 1, kind, stream, false);
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind) {
  return copy("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, nullptr, true);
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return copy("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, stream, false);
}
cudaError_t cudaMemset(void* p, int value, size_t n) {
  return memset_on("cudaMemset", p, value, n, nullptr, true);
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t stream) {
  return memset_on("cudaMemsetAsync", p, value, n, stream, false);
}

}  // extern "C"
