// SPDX-License-Identifier: Apache-2.0
// The explicit interfaces of the mpi module: one interface body per binding, with MPI's dummy
// names and types. Buffers and graph weights are "ignore type, kind and rank" dummies
// (!GCC$ ATTRIBUTES NO_ARG_CHECK, as MPICH's and Open MPI's modules do for gfortran): any
// variable, scalar or array, is passed by address, as without an interface.
#include <set>
#include <sstream>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"

namespace simmpi::mpi::fortran {
namespace {

std::string kind_parameter(FType t) {
  switch (t) {
    case FType::Address:
      return "MPI_ADDRESS_KIND";
    case FType::Count:
      return "MPI_COUNT_KIND";
    case FType::Offset:
      return "MPI_OFFSET_KIND";
    case FType::Status:
      return "MPI_STATUS_SIZE";
    default:
      return "";
  }
}

std::string type_spec(FType t) {
  switch (t) {
    case FType::Logical:
      return "logical";
    case FType::Address:
    case FType::Count:
    case FType::Offset:
      return "integer(kind=" + kind_parameter(t) + ")";
    default:
      return "integer";
  }
}

// The declaration lines of one dummy argument.
std::string declaration(const FParam& p) {
  const std::string& n = p.c.name;
  switch (p.ftype) {
    case FType::Choice:
      return "!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + n + "\ntype(*), dimension(*) :: " + n;
    case FType::Character:
      return "character(len=*) :: " + n +
             (p.conv == Conv::Argvs         ? "(" + p.length + ",*)"
              : p.conv == Conv::StringArray ? "(*)"
                                            : "");
    case FType::Procedure:
      return "external :: " + n;
    case FType::Status:
      return "integer :: " + n + (p.array ? "(MPI_STATUS_SIZE,*)" : "(MPI_STATUS_SIZE)");
    default:
      break;
  }
  std::string d = type_spec(p.ftype) + " :: " + n +
                  (!p.array           ? ""
                   : p.c.extents == 2 ? "(3,*)"
                                      : "(*)");
  if (p.conv == Conv::Weights) d = "!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + n + "\n" + d;
  return d;
}

void write_interface(std::ostringstream& out, const Binding& b) {
  const std::string result = "mpi_result";
  std::vector<std::string> args, decls;
  std::set<std::string> imports;
  for (const FParam& p : b.params) {
    if (p.conv == Conv::Omit) continue;
    if (p.c.name == result) throw GenError(b.proto.name + ": a parameter is named " + result);
    args.push_back(p.c.name);
    decls.push_back(declaration(p));
    if (!kind_parameter(p.ftype).empty()) imports.insert(kind_parameter(p.ftype));
  }
  std::string kind = b.is_function() ? "function" : "subroutine";
  if (b.is_function()) {
    FType t = b.proto.ret == "MPI_Aint"     ? FType::Address
              : b.proto.ret == "MPI_Count"  ? FType::Count
              : b.proto.ret == "MPI_Offset" ? FType::Offset
                                            : FType::Integer;
    std::string type = b.proto.ret == "double" ? "double precision" : type_spec(t);
    decls.push_back(type + " :: " + result);
    if (!kind_parameter(t).empty()) imports.insert(kind_parameter(t));
  } else {
    args.push_back("ierror");
    decls.push_back("integer :: ierror");
  }
  out << "    " << call_line(kind + " " + b.proto.name, args)
      << (b.is_function() ? " result(" + result + ")" : "") << "\n";
  if (!imports.empty()) {
    std::string list;
    for (const std::string& i : imports) list += (list.empty() ? "" : ", ") + i;
    out << "      import :: " << list << "\n";
  }
  out << "      implicit none\n";
  for (const std::string& d : decls) {
    std::istringstream lines(d);
    for (std::string line; std::getline(lines, line);) out << "      " << line << "\n";
  }
  out << "    end " << kind << " " << b.proto.name << "\n";
}

}  // namespace

std::string call_line(const std::string& head, const std::vector<std::string>& args) {
  std::string out = head + "(", line = out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string piece = args[i] + (i + 1 < args.size() ? ", " : ")");
    if (line.size() + piece.size() > 90) {
      out += "&\n        ";
      line = "        ";
    }
    out += piece;
    line += piece;
  }
  return args.empty() ? head + "()" : out;
}

std::string sizeof_interface() {
  return "    subroutine MPI_Sizeof(x, size, ierror) bind(C, name=\"simmpi_sizeof\")\n"
         "      implicit none\n"
         "      type(*), dimension(..), intent(in) :: x\n"
         "      integer, intent(out) :: size\n"
         "      integer, optional, intent(out) :: ierror\n"
         "    end subroutine MPI_Sizeof\n";
}

std::string write_interfaces(const std::vector<Binding>& bindings) {
  std::ostringstream out;
  out << "  interface\n";
  for (const Binding& b : bindings)
    if (!b.f08_only) write_interface(out, b);
  out << sizeof_interface() << "  end interface\n";
  return out.str();
}

}  // namespace simmpi::mpi::fortran
