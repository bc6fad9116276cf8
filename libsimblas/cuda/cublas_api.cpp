// SPDX-License-Identifier: Apache-2.0
// The cuBLAS subset. Each call runs the CPU BLAS routine (checks, cost, execute-mode result)
// with its tasks sent to the handle's stream through a ScopedDeviceTarget, so the GPU and CPU
// paths share one implementation. The host pays one launch latency per call; a call returning a
// scalar to host memory also waits for its stream, as cuBLAS does.
#include <cublas_v2.h>

#include <cstdio>
#include <cstring>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/cuda/gpu_runtime.hpp"
#include "libsimblas/routines/level1.hpp"
#include "libsimblas/routines/level2.hpp"
#include "libsimblas/routines/level3.hpp"
#include "runtime/sched/scheduler.hpp"

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
};

namespace {

namespace b = simmpi::blas;
namespace c = simmpi::blas::cuda;
using simmpi::runtime::SimTime;

class StreamTarget final : public b::DeviceTarget {
 public:
  StreamTarget(const c::Context& ctx, CUstream_st& s)
      : ctx_(ctx), s_(s), earliest_(c::host_now()) {}
  bool charge(const simmpi::hardware::ComputeTask& t) override {
    c::enqueue(ctx_, s_, simmpi::hardware::GpuDevice::Engine::Compute,
               ctx_.gpu_model().kernel_time(t), earliest_);
    return ctx_.executes();
  }

 private:
  const c::Context& ctx_;
  CUstream_st& s_;
  SimTime earliest_;
};

// Runs `f(executes)` with its tasks on the handle's stream. `wait`: the host waits for the
// stream afterwards (a result returned to host memory).
template <class F>
cublasStatus_t on_gpu(cublasHandle_t h, const char* call, F&& f, bool wait = false) {
  c::Context ctx;
  if (!h || !c::context(&ctx)) return CUBLAS_STATUS_NOT_INITIALIZED;
  CUstream_st* s = c::resolve(ctx, h->stream);
  if (!s) {
    std::fprintf(stderr, "simmpi: %s: the handle's stream is not a stream of this rank\n", call);
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  c::host_spend(ctx.gpu_model().spec().launch_latency);
  StreamTarget target(ctx, *s);
  {
    b::ScopedDeviceTarget scope(target);
    f(ctx.executes());
  }
  if (wait) c::host_wait_until(c::done_time(ctx, *s));
  return CUBLAS_STATUS_SUCCESS;
}

// A scalar argument: in device pointer mode it lives in device memory, which only execute mode
// can read; model mode uses 1 (the value changes no cost but beta = 0's).
template <class T>
T scalar(cublasHandle_t h, const T* p) {
  c::Context ctx;
  bool readable =
      h->pointer_mode == CUBLAS_POINTER_MODE_HOST || (c::context(&ctx) && ctx.executes());
  return readable ? *p : T(1);
}

// Stores a scalar result: always to host memory, to device memory only in execute mode.
template <class T, class R>
void store(cublasHandle_t h, bool executes, R* out, T v) {
  if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST || executes) *out = static_cast<R>(v);
}

b::Trans op(cublasOperation_t o) {
  return o == CUBLAS_OP_N ? b::Trans::No : b::Trans::Yes;
}
b::Uplo fill(cublasFillMode_t f) {
  return f == CUBLAS_FILL_MODE_UPPER ? b::Uplo::Upper : b::Uplo::Lower;
}
b::Diag diag(cublasDiagType_t d) {
  return d == CUBLAS_DIAG_UNIT ? b::Diag::Unit : b::Diag::NonUnit;
}
b::Side side(cublasSideMode_t s) {
  return s == CUBLAS_SIDE_LEFT ? b::Side::Left : b::Side::Right;
}

cublasStatus_t status(cudaError_t e) {
  return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

}  // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t stream) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t* stream) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  *stream = h->stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t* mode) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  *mode = h->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}

#define SIMMPI_CUBLAS_DEF(p, lower, T)                                                             \
  cublasStatus_t cublas##p##gemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,  \
                                    int m, int n, int k, const T* alpha, const T* A, int lda,      \
                                    const T* B, int ldb, const T* beta, T* C, int ldc) {           \
    return on_gpu(h, __func__, [&](bool) {                                                         \
      b::gemm(op(ta), op(tb), m, n, k, scalar(h, alpha), A, lda, B, ldb, scalar(h, beta), C, ldc); \
    });                                                                                            \
  }                                                                                                \
  cublasStatus_t cublas##p##trsm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u,      \
                                    cublasOperation_t t, cublasDiagType_t d, int m, int n,         \
                                    const T* alpha, const T* A, int lda, T* B, int ldb) {          \
    return on_gpu(h, __func__, [&](bool) {                                                         \
      b::trsm(side(s), fill(u), op(t), diag(d), m, n, scalar(h, alpha), A, lda, B, ldb);           \
    });                                                                                            \
  }                                                                                                \
  /* Out of place: C = alpha op(A) B, computed as B copied to C, then trmm in place. */            \
  cublasStatus_t cublas##p##trmm_v2(cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t u,      \
                                    cublasOperation_t t, cublasDiagType_t d, int m, int n,         \
                                    const T* alpha, const T* A, int lda, const T* B, int ldb,      \
                                    T* C, int ldc) {                                               \
    return on_gpu(h, __func__, [&](bool executes) {                                                \
      if (executes && C != B)                                                                      \
        for (int j = 0; j < n; ++j) std::memcpy(C + j * ldc, B + j * ldb, sizeof(T) * m);          \
      b::trmm(side(s), fill(u), op(t), diag(d), m, n, scalar(h, alpha), A, lda, C, ldc);           \
    });                                                                                            \
  }                                                                                                \
  cublasStatus_t cublas##p##syrk_v2(cublasHandle_t h, cublasFillMode_t u, cublasOperation_t t,     \
                                    int n, int k, const T* alpha, const T* A, int lda,             \
                                    const T* beta, T* C, int ldc) {                                \
    return on_gpu(h, __func__, [&](bool) {                                                         \
      b::syrk(fill(u), op(t), n, k, scalar(h, alpha), A, lda, scalar(h, beta), C, ldc);            \
    });                                                                                            \
  }                                                                                                \
  cublasStatus_t cublas##p##gemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n,           \
                                    const T* alpha, const T* A, int lda, const T* x, int incx,     \
                                    const T* beta, T* y, int incy) {                               \
    return on_gpu(h, __func__, [&](bool) {                                                         \
      b::gemv(op(t), m, n, scalar(h, alpha), A, lda, x, incx, scalar(h, beta), y, incy);           \
    });                                                                                            \
  }                                                                                                \
  cublasStatus_t cublas##p##ger_v2(cublasHandle_t h, int m, int n, const T* alpha, const T* x,     \
                                   int incx, const T* y, int incy, T* A, int lda) {                \
    return on_gpu(h, __func__,                                                                     \
                  [&](bool) { b::ger(m, n, scalar(h, alpha), x, incx, y, incy, A, lda); });        \
  }                                                                                                \
  cublasStatus_t cublas##p##scal_v2(cublasHandle_t h, int n, const T* alpha, T* x, int incx) {     \
    return on_gpu(h, __func__, [&](bool) { b::scal(n, scalar(h, alpha), x, incx); });              \
  }                                                                                                \
  cublasStatus_t cublas##p##axpy_v2(cublasHandle_t h, int n, const T* alpha, const T* x, int incx, \
                                    T* y, int incy) {                                              \
    return on_gpu(h, __func__, [&](bool) { b::axpy(n, scalar(h, alpha), x, incx, y, incy); });     \
  }                                                                                                \
  cublasStatus_t cublas##p##copy_v2(cublasHandle_t h, int n, const T* x, int incx, T* y,           \
                                    int incy) {                                                    \
    return on_gpu(h, __func__, [&](bool) { b::copy(n, x, incx, y, incy); });                       \
  }                                                                                                \
  cublasStatus_t cublas##p##swap_v2(cublasHandle_t h, int n, T* x, int incx, T* y, int incy) {     \
    return on_gpu(h, __func__, [&](bool) { b::swap(n, x, incx, y, incy); });                       \
  }                                                                                                \
  cublasStatus_t cublas##p##dot_v2(cublasHandle_t h, int n, const T* x, int incx, const T* y,      \
                                   int incy, T* result) {                                          \
    return on_gpu(                                                                                 \
        h, __func__, [&](bool e) { store(h, e, result, b::dot(n, x, incx, y, incy)); },            \
        h && h->pointer_mode == CUBLAS_POINTER_MODE_HOST);                                         \
  }                                                                                                \
  cublasStatus_t cublas##p##nrm2_v2(cublasHandle_t h, int n, const T* x, int incx, T* result) {    \
    return on_gpu(                                                                                 \
        h, __func__, [&](bool e) { store(h, e, result, b::nrm2(n, x, incx)); },                    \
        h && h->pointer_mode == CUBLAS_POINTER_MODE_HOST);                                         \
  }                                                                                                \
  /* cuBLAS indices start at 1 (0 for an empty vector). */                                         \
  cublasStatus_t cublasI##lower##amax_v2(cublasHandle_t h, int n, const T* x, int incx,            \
                                         int* result) {                                            \
    return on_gpu(                                                                                 \
        h, __func__, [&](bool e) { store(h, e, result, b::iamax(n, x, incx) + 1); },               \
        h && h->pointer_mode == CUBLAS_POINTER_MODE_HOST);                                         \
  }

SIMMPI_CUBLAS_DEF(S, s, float)
SIMMPI_CUBLAS_DEF(D, d, double)
#undef SIMMPI_CUBLAS_DEF

cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int es, const void* A, int lda, void* B,
                                    int ldb, cudaStream_t stream) {
  return status(cudaMemcpy2DAsync(B, static_cast<size_t>(ldb) * es, A,
                                  static_cast<size_t>(lda) * es, static_cast<size_t>(rows) * es,
                                  cols, cudaMemcpyHostToDevice, stream));
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int es, const void* A, int lda, void* B,
                                    int ldb, cudaStream_t stream) {
  return status(cudaMemcpy2DAsync(B, static_cast<size_t>(ldb) * es, A,
                                  static_cast<size_t>(lda) * es, static_cast<size_t>(rows) * es,
                                  cols, cudaMemcpyDeviceToHost, stream));
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int es, const void* A, int lda, void* B,
                               int ldb) {
  return status(cudaMemcpy2D(B, static_cast<size_t>(ldb) * es, A, static_cast<size_t>(lda) * es,
                             static_cast<size_t>(rows) * es, cols, cudaMemcpyHostToDevice));
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int es, const void* A, int lda, void* B,
                               int ldb) {
  return status(cudaMemcpy2D(B, static_cast<size_t>(ldb) * es, A, static_cast<size_t>(lda) * es,
                             static_cast<size_t>(rows) * es, cols, cudaMemcpyDeviceToHost));
}
// A strided vector is a 2D copy of n rows of one element.
cublasStatus_t cublasSetVector(int n, int es, const void* x, int incx, void* y, int incy) {
  return status(cudaMemcpy2D(y, static_cast<size_t>(incy) * es, x, static_cast<size_t>(incx) * es,
                             es, n, cudaMemcpyHostToDevice));
}
cublasStatus_t cublasGetVector(int n, int es, const void* x, int incx, void* y, int incy) {
  return status(cudaMemcpy2D(y, static_cast<size_t>(incy) * es, x, static_cast<size_t>(incx) * es,
                             es, n, cudaMemcpyDeviceToHost));
}

}  // extern "C"
