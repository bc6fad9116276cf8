// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime and cuBLAS subset inside a simulation: device discovery, memory, copy and
// kernel times from the GPU model, stream overlap, events, and execute-mode results.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "sim_fixture.hpp"

namespace simmpi::blas::testing {
namespace {

// gpu.* defaults: 67 Tflops, 3.35 TB/s, 4 us launch, 64 GB/s and 1 us link.
constexpr double kLaunch = 4e-6, kLink = 1e-6, kLinkBw = 64e9, kPeak = 67e12;

TEST(Cuda, NoDeviceWithoutGpus) {
  Sim sim({});
  sim.run([&](int) {
    int n = -1;
    EXPECT_EQ(cudaGetDeviceCount(&n), cudaErrorNoDevice);
    EXPECT_EQ(n, 0);
    void* p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorNoDevice);
  });
}

TEST(Cuda, DevicesMemoryAndErrors) {
  Sim sim({"gpu.count=2", "gpu.memory=1GiB"});
  sim.run([&](int) {
    int n = 0;
    EXPECT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
    EXPECT_EQ(n, 2);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(cudaSetDevice(2), cudaErrorInvalidDevice);
    EXPECT_NE(::testing::internal::GetCapturedStderr().find("cudaSetDevice"), std::string::npos);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    void *a = nullptr, *b = nullptr;
    EXPECT_EQ(cudaMalloc(&a, 768u << 20), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&b, 512u << 20), cudaErrorMemoryAllocation) << "beyond gpu.memory";
    std::size_t free_b = 0, total = 0;
    cudaMemGetInfo(&free_b, &total);
    EXPECT_EQ(total, 1u << 30);
    EXPECT_EQ(free_b, 256u << 20);
    EXPECT_EQ(cudaSetDevice(1), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&b, 512u << 20), cudaSuccess) << "device 1 has its own memory";
    EXPECT_EQ(cudaFree(a), cudaSuccess);
    EXPECT_EQ(cudaFree(b), cudaSuccess);
  });
}

TEST(Cuda, CopiesAndKernelsAreTimedByTheModel) {
  Sim sim({"gpu.count=1"});
  double t_copy = -1, t_gemm = -1, t_overlap = -1;
  float elapsed_ms = -1;
  sim.run([&](int) {
    void* d = nullptr;
    cudaMalloc(&d, 64000000);
    cudaMemcpy(d, nullptr, 64000000, cudaMemcpyHostToDevice);  // model mode: no data moves
    t_copy = sim.now_s();
    cublasHandle_t h;
    cublasCreate(&h);
    const double one = 1;
    double* m = static_cast<double*>(d);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0, 0);
    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1000, 1000, 1000, &one, m, 1000, m, 1000, &one, m,
                1000);
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    cudaEventElapsedTime(&elapsed_ms, e0, e1);
    t_gemm = sim.now_s() - t_copy;
    // A copy on one stream overlaps a kernel on another.
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cublasSetStream(h, s1);
    double t0 = sim.now_s();
    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1000, 1000, 1000, &one, m, 1000, m, 1000, &one, m,
                1000);
    cudaMemcpyAsync(d, nullptr, 64000000, cudaMemcpyHostToDevice, s2);
    cudaDeviceSynchronize();
    t_overlap = sim.now_s() - t0;
    cublasDestroy(h);
    cudaFree(d);
  });
  double copy = kLink + 64e6 / kLinkBw, gemm = 2e9 / kPeak;
  EXPECT_NEAR(t_copy, kLaunch + copy, 1e-11);
  EXPECT_NEAR(t_gemm, kLaunch + gemm, 1e-11);
  EXPECT_NEAR(elapsed_ms, (kLaunch + gemm) * 1e3, 1e-6);
  // The kernel starts after one launch, the copy after two; the copy (1 ms) ends last.
  EXPECT_NEAR(t_overlap, 2 * kLaunch + copy, 1e-11);
}

TEST(Cuda, ExecuteModeComputesOnTheDevice) {
  Sim sim({"gpu.count=1", "blas.mode=execute"});
  double c[4] = {};
  int imax = 0;
  sim.run([&](int) {
    double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    double *da, *db, *dc;
    cudaMalloc(reinterpret_cast<void**>(&da), sizeof a);
    cudaMalloc(reinterpret_cast<void**>(&db), sizeof b);
    cudaMalloc(reinterpret_cast<void**>(&dc), sizeof c);
    cublasSetMatrix(2, 2, sizeof(double), a, 2, da, 2);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyDefault);
    cublasHandle_t h;
    cublasCreate(&h);
    const double one = 1, zero = 0;
    cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &one, da, 2, db, 2, &zero, dc, 2);
    cublasGetMatrix(2, 2, sizeof(double), dc, 2, c, 2);
    cublasIdamax(h, 4, dc, 1, &imax);
    cublasDestroy(h);
  });
  // A^T B with A = [1 3; 2 4], B = [5 7; 6 8] (column-major).
  EXPECT_EQ(c[0], 1 * 5 + 2 * 6);
  EXPECT_EQ(c[1], 3 * 5 + 4 * 6);
  EXPECT_EQ(c[2], 1 * 7 + 2 * 8);
  EXPECT_EQ(c[3], 3 * 7 + 4 * 8);
  EXPECT_EQ(imax, 4);
}

}  // namespace
}  // namespace simmpi::blas::testing
