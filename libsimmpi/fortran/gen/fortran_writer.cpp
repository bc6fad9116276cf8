// SPDX-License-Identifier: Apache-2.0
// Writes mpif.h (the Fortran 77 include file) and mpi.f90 (the source of the mpi module): the
// integer constants of mpi.h with their values, the Fortran-only ones, the sentinels in COMMON
// blocks, and in the module an explicit interface for every binding.
#include <cctype>
#include <set>
#include <sstream>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"

namespace simmpi::mpi::fortran {
namespace {

constexpr int kAddressKind = 8;  // fortran_args.hpp asserts the C side
constexpr int kIntegerKind = 4;

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

long long value_of(const std::vector<Constant>& constants, const std::string& name) {
  for (const Constant& c : constants)
    if (c.name == name) return c.value;
  throw GenError("mpi.h does not define " + name);
}

// Declarations valid in both fixed and free form (statements start in column 7 in mpif.h). The
// sentinels are variables in COMMON blocks (MPICH's names), so the bindings can recognize their
// addresses; the blocks are not SAVEd, which would clash with a program unit's blanket SAVE, and
// need not be: gfortran gives COMMON blocks static storage.
const char* const kSentinels[] = {
    "INTEGER MPI_BOTTOM, MPI_IN_PLACE",
    "INTEGER MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY",
    "INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)",
    "INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)",
    "INTEGER MPI_ERRCODES_IGNORE(1)",
    "CHARACTER*1 MPI_ARGVS_NULL(1,1)",
    "CHARACTER*1 MPI_ARGV_NULL(1)",
    "COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE",
    "COMMON /MPIPRIV2/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE",
    "COMMON /MPIFCMB5/ MPI_UNWEIGHTED",
    "COMMON /MPIFCMB9/ MPI_WEIGHTS_EMPTY",
    "COMMON /MPIPRIVC/ MPI_ARGVS_NULL, MPI_ARGV_NULL",
    "EXTERNAL MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN",
    "EXTERNAL MPI_COMM_DUP_FN, MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN",
    "EXTERNAL MPI_DUP_FN",
    "EXTERNAL MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN",
    "EXTERNAL MPI_WIN_DUP_FN",
    "EXTERNAL MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN",
    "EXTERNAL MPI_TYPE_DUP_FN",
};

std::string fortran_type(const std::string& c_type) {
  if (c_type == "double") return "DOUBLE PRECISION";
  if (c_type == "MPI_Aint") return "INTEGER(KIND=MPI_ADDRESS_KIND)";
  if (c_type == "MPI_Count") return "INTEGER(KIND=MPI_COUNT_KIND)";
  if (c_type == "MPI_Offset") return "INTEGER(KIND=MPI_OFFSET_KIND)";
  return "INTEGER";
}

void fixed_line(std::ostringstream& out, const std::string& statement) {
  if (statement.size() > 66)
    throw GenError("mpif.h: \"" + statement + "\" is longer than fixed form allows");
  out << "      " << statement << "\n";
}

std::string header(const char* what) {
  return std::string("! SPDX-License-Identifier: Apache-2.0\n! simmpi's ") + what +
         ", written by simmpi_fortran_gen from mpi.h and\n"
         "! libsimmpi/fortran/bindings.tbl: do not edit.\n";
}

}  // namespace

// The constants Fortran sees: mpi.h's (less the MPI_F_* ones, C's view of Fortran) and the
// Fortran-only ones. Each must fit a default INTEGER and be unique in any letter case.
std::vector<Constant> fortran_constants(const std::vector<Constant>& c_constants) {
  std::vector<Constant> out;
  for (const Constant& c : c_constants)
    if (c.name.rfind("MPI_F_", 0) != 0) out.push_back(c);
  out.push_back({"MPI_STATUS_SIZE", value_of(c_constants, "MPI_F_STATUS_SIZE")});
  out.push_back({"MPI_SOURCE", value_of(c_constants, "MPI_F_SOURCE") + 1});
  out.push_back({"MPI_TAG", value_of(c_constants, "MPI_F_TAG") + 1});
  out.push_back({"MPI_ERROR", value_of(c_constants, "MPI_F_ERROR") + 1});
  out.push_back({"MPI_ADDRESS_KIND", kAddressKind});
  out.push_back({"MPI_COUNT_KIND", kAddressKind});
  out.push_back({"MPI_OFFSET_KIND", kAddressKind});
  out.push_back({"MPI_INTEGER_KIND", kIntegerKind});
  std::set<std::string> seen;
  for (const Constant& c : out) {
    if (c.value < -2147483648LL || c.value > 2147483647LL)
      throw GenError(c.name + " = " + std::to_string(c.value) + " does not fit a Fortran INTEGER");
    if (!seen.insert(upper(c.name)).second)
      throw GenError(c.name + " is defined twice (Fortran ignores letter case)");
  }
  return out;
}

std::string write_mpif_h(const std::vector<Constant>& constants,
                         const std::vector<Binding>& bindings) {
  std::ostringstream out;
  out << header("mpif.h (Fortran 77 include file)")
      << "! Valid fixed-form and free-form source: statements start in column 7, and none is\n"
         "! continued.\n";
  for (const Constant& c : fortran_constants(constants)) {
    fixed_line(out, "INTEGER " + c.name);
    fixed_line(out, "PARAMETER (" + c.name + "=" + std::to_string(c.value) + ")");
  }
  for (const char* s : kSentinels) fixed_line(out, s);
  for (const Binding& b : bindings) {
    if (!b.is_function() || b.f08_only) continue;
    fixed_line(out, fortran_type(b.proto.ret) + " " + upper(b.proto.name));
    fixed_line(out, "EXTERNAL " + upper(b.proto.name));
  }
  return out.str();
}

std::string write_mpi_module(const std::vector<Constant>& constants,
                             const std::vector<Binding>& bindings) {
  std::ostringstream out;
  out << header("mpi module (use mpi)") << "module mpi\n  implicit none\n";
  for (const Constant& c : fortran_constants(constants))
    out << "  integer, parameter :: " << c.name << " = " << c.value << "\n";
  for (const char* s : kSentinels) out << "  " << s << "\n";
  out << write_interfaces(bindings) << "end module mpi\n";
  return out.str();
}

}  // namespace simmpi::mpi::fortran
