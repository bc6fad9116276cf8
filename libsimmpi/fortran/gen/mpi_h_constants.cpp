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

const std::vector<HandleType>& handle_types() {
  static const std::vector<HandleType> types = {{"MPI_Comm", SIMMPI_KIND_COMM},
                                                {"MPI_Group", SIMMPI_KIND_GROUP},
                                                {"MPI_Datatype", SIMMPI_KIND_DATATYPE},
                                                {"MPI_Errhandler", SIMMPI_KIND_ERRHANDLER},
                                                {"MPI_Op", SIMMPI_KIND_OP},
                                                {"MPI_Request", SIMMPI_KIND_REQUEST},
                                                {"MPI_Info", SIMMPI_KIND_INFO},
                                                {"MPI_Win", SIMMPI_KIND_WIN},
                                                {"MPI_File", SIMMPI_KIND_FILE},
                                                {"MPI_Message", SIMMPI_KIND_MESSAGE},
                                                {"MPI_Session", SIMMPI_KIND_SESSION}};
  return types;
}

// A handle is (kind << 24) | index with a small index; no other constant of mpi.h is as large.
std::string handle_type_of(const Constant& c) {
  if (c.value <= 0 || (c.value & 0xffffff) > 0xffff) return "";
  for (const HandleType& t : handle_types())
    if ((c.value >> 24) == t.kind) return t.c_type;
  return "";
}

}  // namespace simmpi::mpi::fortran
