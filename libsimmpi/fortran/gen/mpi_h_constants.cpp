// SPDX-License-Identifier: Apache-2.0
// The values of mpi.h's constants, as the C compiler computes them: list_constants.cmake lists
// every object-like MPI_* macro into mpi_h_constants.inc, and those whose value is an integer
// (not MPI_BOTTOM's pointer, nor MPI_DUP_FN's function) are kept.
#include <type_traits>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"
#include "mpi.h"

namespace simmpi::mpi::fortran {
namespace {

// `value` is only called, and so the macro's expression only compiled into code, when T is an
// integer: a pointer or function macro must not make this tool link against libsimmpi.
template <class T, class F>
void add(std::vector<Constant>& out, const char* name, F value) {
  if constexpr (std::is_integral_v<T>)
    out.push_back(Constant{name, static_cast<long long>(value())});
}

}  // namespace

std::vector<Constant> mpi_h_constants() {
  std::vector<Constant> out;
  // A macro because only the preprocessor turns a name into both its spelling and its value.
#define SIMMPI_CONSTANT(name) add<decltype(name)>(out, #name, [] { return name; });
#include "mpi_h_constants.inc"
#undef SIMMPI_CONSTANT
  return out;
}

}  // namespace simmpi::mpi::fortran
