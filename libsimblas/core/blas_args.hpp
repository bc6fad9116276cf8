// SPDX-License-Identifier: Apache-2.0
// BLAS option arguments (transpose, triangle, side, diagonal) as enums, their conversions from
// Fortran characters and CBLAS constants, and the argument checks every interface shares. A bad
// argument ends the run with a message naming the routine, the argument and its value, as the
// reference BLAS's xerbla does.
#pragma once

#include <cstdint>
#include <string>

namespace simmpi::blas {

enum class Trans { No, Yes };  // a real matrix's conjugate transpose is its transpose
enum class Uplo { Upper, Lower };
enum class Side { Left, Right };
enum class Diag { NonUnit, Unit };

inline Trans flip(Trans t) {
  return t == Trans::No ? Trans::Yes : Trans::No;
}
inline Uplo flip(Uplo u) {
  return u == Uplo::Upper ? Uplo::Lower : Uplo::Upper;
}
inline Side flip(Side s) {
  return s == Side::Left ? Side::Right : Side::Left;
}

// Fortran character options, case-insensitive ("N", "t", "C"...). Bad ones end the run.
Trans trans_of(const char* c, const char* routine, const char* arg);
Uplo uplo_of(const char* c, const char* routine, const char* arg);
Side side_of(const char* c, const char* routine, const char* arg);
Diag diag_of(const char* c, const char* routine, const char* arg);
// CBLAS constants (CblasNoTrans = 111, ...).
Trans trans_of(int v, const char* routine, const char* arg);
Uplo uplo_of(int v, const char* routine, const char* arg);
Side side_of(int v, const char* routine, const char* arg);
Diag diag_of(int v, const char* routine, const char* arg);
// True for CblasRowMajor; ends the run unless CblasRowMajor or CblasColMajor.
bool is_row_major(int order, const char* routine);

// "dgemm" for elem_size 8 and base "gemm", "sgemm" for 4: the routine named in messages.
std::string routine_name(int elem_size, const char* base);

// Ends the run: "simmpi: error: dgemm: lda = 3 must be >= max(1, m = 5)".
[[noreturn]] void bad_argument(const char* routine, const char* message);

// Checks shared by the routines; each names `routine` and the argument on failure.
void check_dim(const char* routine, const char* name, std::int64_t v);    // v >= 0
void check_inc(const char* routine, const char* name, std::int64_t inc);  // inc != 0
void check_ld(const char* routine, const char* name, std::int64_t ld, std::int64_t rows);

}  // namespace simmpi::blas
