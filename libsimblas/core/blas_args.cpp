// SPDX-License-Identifier: Apache-2.0
// Option conversions and argument checks.
#include "libsimblas/core/blas_args.hpp"

#include <algorithm>
#include <cctype>

#include "runtime/core/error.hpp"

namespace simmpi::blas {
namespace {

char upper(const char* c) {
  return c ? static_cast<char>(std::toupper(*c)) : '\0';
}

[[noreturn]] void bad_option(const char* routine, const char* arg, const char* got,
                             const char* allowed) {
  bad_argument(routine, strprintf("%s = '%s' is not one of %s", arg, got, allowed).c_str());
}

[[noreturn]] void bad_constant(const char* routine, const char* arg, int v, const char* allowed) {
  bad_argument(routine, strprintf("%s = %d is not one of %s", arg, v, allowed).c_str());
}

}  // namespace

std::string routine_name(int elem_size, const char* base) {
  return (elem_size == 4 ? "s" : "d") + std::string(base);
}

void bad_argument(const char* routine, const char* message) {
  fatal(1, strprintf("%s: %s", routine, message));
}

Trans trans_of(const char* c, const char* routine, const char* arg) {
  switch (upper(c)) {
    case 'N':
      return Trans::No;
    case 'T':
    case 'C':
      return Trans::Yes;
  }
  bad_option(routine, arg, c ? std::string(1, *c).c_str() : "", "'N', 'T', 'C'");
}

Uplo uplo_of(const char* c, const char* routine, const char* arg) {
  switch (upper(c)) {
    case 'U':
      return Uplo::Upper;
    case 'L':
      return Uplo::Lower;
  }
  bad_option(routine, arg, c ? std::string(1, *c).c_str() : "", "'U', 'L'");
}

Side side_of(const char* c, const char* routine, const char* arg) {
  switch (upper(c)) {
    case 'L':
      return Side::Left;
    case 'R':
      return Side::Right;
  }
  bad_option(routine, arg, c ? std::string(1, *c).c_str() : "", "'L', 'R'");
}

Diag diag_of(const char* c, const char* routine, const char* arg) {
  switch (upper(c)) {
    case 'N':
      return Diag::NonUnit;
    case 'U':
      return Diag::Unit;
  }
  bad_option(routine, arg, c ? std::string(1, *c).c_str() : "", "'N', 'U'");
}

// The CBLAS values are those of the netlib cblas.h (and of HPL's enums).
Trans trans_of(int v, const char* routine, const char* arg) {
  if (v == 111) return Trans::No;
  if (v == 112 || v == 113) return Trans::Yes;
  bad_constant(routine, arg, v, "CblasNoTrans, CblasTrans, CblasConjTrans");
}

Uplo uplo_of(int v, const char* routine, const char* arg) {
  if (v == 121) return Uplo::Upper;
  if (v == 122) return Uplo::Lower;
  bad_constant(routine, arg, v, "CblasUpper, CblasLower");
}

Side side_of(int v, const char* routine, const char* arg) {
  if (v == 141) return Side::Left;
  if (v == 142) return Side::Right;
  bad_constant(routine, arg, v, "CblasLeft, CblasRight");
}

Diag diag_of(int v, const char* routine, const char* arg) {
  if (v == 131) return Diag::NonUnit;
  if (v == 132) return Diag::Unit;
  bad_constant(routine, arg, v, "CblasNonUnit, CblasUnit");
}

bool is_row_major(int order, const char* routine) {
  if (order == 101) return true;
  if (order == 102) return false;
  bad_constant(routine, "order", order, "CblasRowMajor, CblasColMajor");
}

void check_dim(const char* routine, const char* name, std::int64_t v) {
  if (v < 0)
    bad_argument(routine,
                 strprintf("%s = %lld must be >= 0", name, static_cast<long long>(v)).c_str());
}

void check_inc(const char* routine, const char* name, std::int64_t inc) {
  if (inc == 0) bad_argument(routine, strprintf("%s = 0 is not allowed", name).c_str());
}

void check_ld(const char* routine, const char* name, std::int64_t ld, std::int64_t rows) {
  if (ld < std::max<std::int64_t>(1, rows))
    bad_argument(routine, strprintf("%s = %lld must be >= max(1, %lld)", name,
                                    static_cast<long long>(ld), static_cast<long long>(rows))
                              .c_str());
}

}  // namespace simmpi::blas
