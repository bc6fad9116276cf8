/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi's cuBLAS subset (the v2 API). Each call is timed on its stream by the GPU model and
 * computed only in execute mode, by the same routines as the CPU BLAS. A cuBLAS function not
 * declared here is not provided: the compiler and linker name it. */
#ifndef SIMMPI_CUBLAS_V2_H
#define SIMMPI_CUBLAS_V2_H

#include "cuda_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default)

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef struct cublasContext* cublasHandle_t;

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* stream);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode);

#define SIMMPI_CUBLAS_DECL(p, lower, T)                                                            \
  cublasStatus_t cublas##p##gemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,  \
                                    int m, int n, int k, const T* alpha, const T* A, int lda,      \
                                    const T* B, int ldb, const T* beta, T* C, int ldc);            \
  cublasStatus_t cublas##p##trsm_v2(                                                               \
      cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,     \
      cublasDiagType_t diag, int m, int n, const T* alpha, const T* A, int lda, T* B, int ldb);    \
  cublasStatus_t cublas##p##trmm_v2(cublasHandle_t h, cublasSideMode_t side,                       \
                                    cublasFillMode_t uplo, cublasOperation_t trans,                \
                                    cublasDiagType_t diag, int m, int n, const T* alpha,           \
                                    const T* A, int lda, const T* B, int ldb, T* C, int ldc);      \
  cublasStatus_t cublas##p##syrk_v2(cublasHandle_t h, cublasFillMode_t uplo,                       \
                                    cublasOperation_t trans, int n, int k, const T* alpha,         \
                                    const T* A, int lda, const T* beta, T* C, int ldc);            \
  cublasStatus_t cublas##p##gemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n,       \
                                    const T* alpha, const T* A, int lda, const T* x, int incx,     \
                                    const T* beta, T* y, int incy);                                \
  cublasStatus_t cublas##p##ger_v2(cublasHandle_t h, int m, int n, const T* alpha, const T* x,     \
                                   int incx, const T* y, int incy, T* A, int lda);                 \
  cublasStatus_t cublas##p##scal_v2(cublasHandle_t h, int n, const T* alpha, T* x, int incx);      \
  cublasStatus_t cublas##p##axpy_v2(cublasHandle_t h, int n, const T* alpha, const T* x, int incx, \
                                    T* y, int incy);                                               \
  cublasStatus_t cublas##p##copy_v2(cublasHandle_t h, int n, const T* x, int incx, T* y,           \
                                    int incy);                                                     \
  cublasStatus_t cublas##p##swap_v2(cublasHandle_t h, int n, T* x, int incx, T* y, int incy);      \
  cublasStatus_t cublas##p##dot_v2(cublasHandle_t h, int n, const T* x, int incx, const T* y,      \
                                   int incy, T* result);                                           \
  cublasStatus_t cublas##p##nrm2_v2(cublasHandle_t h, int n, const T* x, int incx, T* result);     \
  cublasStatus_t cublasI##lower##amax_v2(cublasHandle_t h, int n, const T* x, int incx,            \
                                         int* result);
SIMMPI_CUBLAS_DECL(S, s, float)
SIMMPI_CUBLAS_DECL(D, d, double)
#undef SIMMPI_CUBLAS_DECL

/* Copies between host and device matrices and vectors (column-major, element size in bytes). */
cublasStatus_t cublasSetMatrix(int rows, int cols, int elem_size, const void* A, int lda, void* B,
                               int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elem_size, const void* A, int lda, void* B,
                               int ldb);
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elem_size, const void* A, int lda,
                                    void* B, int ldb, cudaStream_t stream);
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elem_size, const void* A, int lda,
                                    void* B, int ldb, cudaStream_t stream);
cublasStatus_t cublasSetVector(int n, int elem_size, const void* x, int incx, void* y, int incy);
cublasStatus_t cublasGetVector(int n, int elem_size, const void* x, int incx, void* y, int incy);

#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasGetPointerMode cublasGetPointerMode_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2
#define cublasStrsm cublasStrsm_v2
#define cublasDtrsm cublasDtrsm_v2
#define cublasStrmm cublasStrmm_v2
#define cublasDtrmm cublasDtrmm_v2
#define cublasSsyrk cublasSsyrk_v2
#define cublasDsyrk cublasDsyrk_v2
#define cublasSgemv cublasSgemv_v2
#define cublasDgemv cublasDgemv_v2
#define cublasSger cublasSger_v2
#define cublasDger cublasDger_v2
#define cublasSscal cublasSscal_v2
#define cublasDscal cublasDscal_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasDaxpy cublasDaxpy_v2
#define cublasScopy cublasScopy_v2
#define cublasDcopy cublasDcopy_v2
#define cublasSswap cublasSswap_v2
#define cublasDswap cublasDswap_v2
#define cublasSdot cublasSdot_v2
#define cublasDdot cublasDdot_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasDnrm2 cublasDnrm2_v2
#define cublasIsamax cublasIsamax_v2
#define cublasIdamax cublasIdamax_v2

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* SIMMPI_CUBLAS_V2_H */
