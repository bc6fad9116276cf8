/* SPDX-License-Identifier: Apache-2.0 */
/* The CUDA runtime and cuBLAS subset end to end, built with simmpicc -lcudart -lcublas: each
 * rank picks a GPU of its node, copies a panel over the link, runs a DGEMM on a stream, and
 * times it with events; the times must be those of the GPU model (gpu.* defaults). */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ndev = 0, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  ok &= cudaGetDeviceCount(&ndev) == cudaSuccess && ndev == 2;
  ok &= cudaSetDevice(rank % ndev) == cudaSuccess;
  double* d = NULL;
  ok &= cudaMalloc((void**)&d, (size_t)8 * 4096 * 4096) == cudaSuccess;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetStream(h, s);
  const double one = 1;
  cudaEventRecord(e0, s);
  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4096, 4096, 4096, &one, d, 4096, d, 4096, &one, d, 4096);
  cudaEventRecord(e1, s);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  /* Launch latency (4 us) then 2 * 4096^3 flops at 67 Tflops. */
  double expected_ms = (4e-6 + 2.0 * 4096 * 4096 * 4096 / 67e12) * 1e3;
  ok &= fabs(ms - expected_ms) < 1e-4 * expected_ms;
  cublasDestroy(h);
  cudaFree(d);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "cuda_e2e: OK\n" : "cuda_e2e: FAILED (%g ms)\n", ms);
  MPI_Finalize();
  return all ? 0 : 1;
}
