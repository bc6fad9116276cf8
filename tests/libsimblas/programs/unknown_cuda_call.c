/* SPDX-License-Identifier: Apache-2.0 */
/* Calls a CUDA function simmpi does not provide: building it must fail, naming the function. */
#include <cuda_runtime.h>

int main(void) {
  void* p;
  return cudaMallocManaged(&p, 64, 1) != cudaSuccess;
}
