// SPDX-License-Identifier: Apache-2.0
// The Fortran BLAS and LAPACK prototypes the tests call, and a table of them that can be filled
// from SimBLAS (this binary) or from a reference library loaded with dlopen.
#pragma once

extern "C" {
void dswap_(const int*, double*, const int*, double*, const int*);
void dscal_(const int*, const double*, double*, const int*);
void dcopy_(const int*, const double*, const int*, double*, const int*);
void daxpy_(const int*, const double*, const double*, const int*, double*, const int*);
double ddot_(const int*, const double*, const int*, const double*, const int*);
double dnrm2_(const int*, const double*, const int*);
double dasum_(const int*, const double*, const int*);
int idamax_(const int*, const double*, const int*);
void drot_(const int*, double*, const int*, double*, const int*, const double*, const double*);
void drotm_(const int*, double*, const int*, double*, const int*, const double*);
void drotg_(double*, double*, double*, double*);
void drotmg_(double*, double*, double*, const double*, double*);
double dsdot_(const int*, const float*, const int*, const float*, const int*);
void dgemv_(const char*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*);
void dgbmv_(const char*, const int*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void dsymv_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, const double*, double*, const int*);
void dsbmv_(const char*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*);
void dspmv_(const char*, const int*, const double*, const double*, const double*, const int*,
            const double*, double*, const int*);
void dtrmv_(const char*, const char*, const char*, const int*, const double*, const int*, double*,
            const int*);
void dtbmv_(const char*, const char*, const char*, const int*, const int*, const double*,
            const int*, double*, const int*);
void dtpmv_(const char*, const char*, const char*, const int*, const double*, double*, const int*);
void dtrsv_(const char*, const char*, const char*, const int*, const double*, const int*, double*,
            const int*);
void dtbsv_(const char*, const char*, const char*, const int*, const int*, const double*,
            const int*, double*, const int*);
void dtpsv_(const char*, const char*, const char*, const int*, const double*, double*, const int*);
void dger_(const int*, const int*, const double*, const double*, const int*, const double*,
           const int*, double*, const int*);
void dsyr_(const char*, const int*, const double*, const double*, const int*, double*, const int*);
void dspr_(const char*, const int*, const double*, const double*, const int*, double*);
void dsyr2_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, double*, const int*);
void dspr2_(const char*, const int*, const double*, const double*, const int*, const double*,
            const int*, double*);
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void dsymm_(const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, const double*, const int*, const double*, double*, const int*);
void dsyrk_(const char*, const char*, const int*, const int*, const double*, const double*,
            const int*, const double*, double*, const int*);
void dsyr2k_(const char*, const char*, const int*, const int*, const double*, const double*,
             const int*, const double*, const int*, const double*, double*, const int*);
void dtrmm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
void dtrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
            const float*, const int*, const float*, const int*, const float*, float*, const int*);
void strsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const float*, const float*, const int*, float*, const int*);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*,
             const int*, int*);
void dlaswp_(const int*, double*, const int*, const int*, const int*, const int*, const int*);
void dlacpy_(const char*, const int*, const int*, const double*, const int*, double*, const int*);
double dlange_(const char*, const int*, const int*, const double*, const int*, double*);
}

namespace simmpi::blas::testing {

// An X-macro list: clang-format 14 does not lay one out stably.
// clang-format off
#define SIMMPI_FORTRAN_ROUTINES(X) \
  X(dswap_) X(dscal_) X(dcopy_) X(daxpy_) X(ddot_) X(dnrm2_) X(dasum_) X(idamax_) \
  X(drot_) X(drotm_) X(drotg_) X(drotmg_) X(dsdot_) \
  X(dgemv_) X(dgbmv_) X(dsymv_) X(dsbmv_) X(dspmv_) X(dtrmv_) X(dtbmv_) X(dtpmv_) \
  X(dtrsv_) X(dtbsv_) X(dtpsv_) \
  X(dger_) X(dsyr_) X(dspr_) X(dsyr2_) X(dspr2_) \
  X(dgemm_) X(dsymm_) X(dsyrk_) X(dsyr2k_) X(dtrmm_) X(dtrsm_) X(sgemm_) X(strsm_)
#define SIMMPI_LAPACK_ROUTINES(X) X(dgetrf_) X(dgetrs_) X(dlaswp_) X(dlacpy_) X(dlange_)
// clang-format on

// One implementation's entry points: f.dgemm_(...) calls that implementation's dgemm_.
struct Api {
#define SIMMPI_MEMBER(name) decltype(&::name) name;
  SIMMPI_FORTRAN_ROUTINES(SIMMPI_MEMBER)
  SIMMPI_LAPACK_ROUTINES(SIMMPI_MEMBER)
#undef SIMMPI_MEMBER
};

// SimBLAS, as linked into this test.
const Api& simblas();
// The reference BLAS and LAPACK (netlib, from Debian's libblas3 and liblapack3) loaded privately
// with dlopen(RTLD_LOCAL | RTLD_DEEPBIND), or nullptr when they are not installed.
const Api* reference();

}  // namespace simmpi::blas::testing
