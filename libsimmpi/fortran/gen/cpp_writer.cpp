// SPDX-License-Identifier: Apache-2.0
// Writes fortran_bindings.cpp: one extern "C" entry point per binding, named as gfortran calls it
// (mpi_send_), with an alias for -fsecond-underscore (mpi_send__).
#include <sstream>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"

namespace simmpi::mpi::fortran {
namespace {

std::string c_type_of(FType t) {
  switch (t) {
    case FType::Address:
      return "MPI_Aint";
    case FType::Count:
      return "MPI_Count";
    case FType::Offset:
      return "MPI_Offset";
    default:
      return "MPI_Fint";
  }
}

// The entry point's declaration of one Fortran argument (every one arrives by reference).
std::string declaration(const FParam& p) {
  const std::string& n = p.c.name;
  switch (p.conv) {
    case Conv::Value:
      return "const " + p.c.type + "* " + n;
    case Conv::LogicalValue:
    case Conv::WidenValue:
      return "const MPI_Fint* " + n;
    case Conv::WidenArray:
      return "const MPI_Fint* " + n;
    case Conv::NarrowOut:
    case Conv::StatusOut:
    case Conv::Statuses:
      return "MPI_Fint* " + n;
    case Conv::StatusIn:
      return "const MPI_Fint* " + n;
    case Conv::Choice:
      return "void* " + n;
    case Conv::StringIn:
      return "const char* " + n;
    case Conv::StringOut:
      return "char* " + n;
    case Conv::Opaque:
      return c_type_of(p.ftype) + "* " + n;
    case Conv::Omit:
      return "";
    default:
      return p.c.decl;  // Pass, Weights, IndexOut, IndicesOut, Procedure
  }
}

bool is_string(const FParam& p) {
  return p.conv == Conv::StringIn || p.conv == Conv::StringOut;
}

std::string parameter_list(const Binding& b) {
  std::string out;
  auto add = [&out](const std::string& d) {
    if (d.empty()) return;
    out += (out.empty() ? "" : ", ") + d;
  };
  for (const FParam& p : b.params) add(declaration(p));
  if (!b.is_function()) add("MPI_Fint* ierror");
  // gfortran passes the length of each CHARACTER argument after all the others, as a size_t.
  for (const FParam& p : b.params)
    if (is_string(p)) add("std::size_t " + p.c.name + "_len");
  return out;
}

// Statements before the call (helpers that convert), the C argument, statements after the call.
struct Pieces {
  std::string before, argument, after;
};

// A helper object of fortran_args.hpp that converts around the call, built from `args`.
Pieces helper(const std::string& type, const FParam& p, const std::string& args) {
  std::string local = p.c.name + "_c";
  return {"  fortran::" + type + " " + local + "(" + args + ");\n", local + ".get()", ""};
}

Pieces pieces(const Binding& b, const FParam& p) {
  const std::string& n = p.c.name;
  const std::string length = p.length.empty() ? "" : "*" + p.length;
  switch (p.conv) {
    case Conv::Value:
      return {"", "*" + n, ""};
    case Conv::LogicalValue:
      return {"", "*" + n + " != 0", ""};
    case Conv::WidenValue:
      return {"", "static_cast<MPI_Aint>(*" + n + ")", ""};
    case Conv::WidenArray:
      return helper("WideArray", p, n + ", " + length);
    case Conv::NarrowOut:
      return {"  MPI_Aint " + n + "_c = 0;\n", "&" + n + "_c",
              "  fortran::narrow(\"" + b.proto.name + "\", " + n + "_c, " + n + ", ierror);\n"};
    case Conv::Choice:
      return {"", "fortran::choice(" + n + ")", ""};
    case Conv::Weights:
      return {"", "fortran::weights(" + n + ")", ""};
    case Conv::StatusOut:
      return helper("StatusOut", p, n);
    case Conv::StatusIn:
      return helper("StatusIn", p, n);
    case Conv::Statuses:
      return helper("Statuses", p, n + ", " + length);
    case Conv::StringIn:
      return helper("StringIn", p, n + ", " + n + "_len");
    case Conv::StringOut:
      return helper("StringOut", p, n + ", " + n + "_len");
    case Conv::IndexOut:
      return {"", n, "  fortran::to_fortran_index(" + n + ");\n"};
    case Conv::IndicesOut:
      return {"", n, "  fortran::to_fortran_indices(" + n + ", " + p.length + ");\n"};
    case Conv::Omit:  // a value (MPI_Info_create_env's argc) gets 0, a pointer NULL
      return {"", p.c.pointers == 0 && p.c.extents == 0 ? "0" : "nullptr", ""};
    default:
      return {"", n, ""};  // Pass, Procedure, Opaque
  }
}

std::string body(const Binding& b) {
  std::string before, after, args;
  for (const FParam& p : b.params) {
    Pieces x = b.custom ? Pieces{"", p.conv == Conv::Omit ? "" : p.c.name, ""} : pieces(b, p);
    before += x.before;
    after += x.after;
    if (!x.argument.empty()) args += (args.empty() ? "" : ", ") + x.argument;
  }
  std::string callee = (b.custom ? "fortran::custom::" : "::") + b.proto.name;
  std::string call = callee + "(" + args + ")";
  if (b.is_function()) {
    if (after.empty()) return before + "  return " + call + ";\n";
    return before + "  " + b.proto.ret + " result = " + call + ";\n" + after + "  return result;\n";
  }
  // The helpers' destructors (statuses, strings) copy the results out when the function returns.
  return before + "  *ierror = " + call + ";\n" + after;
}

void write_binding(std::ostringstream& out, const Binding& b) {
  std::string ret = b.is_function() ? b.proto.ret : "void";
  std::string symbol = fortran_symbol(b.proto.name);
  std::string params = parameter_list(b);
  out << "// " << b.proto.name << (b.custom ? " (custom_bindings.hpp)" : "") << "\n";
  out << ret << " " << symbol << "(" << params << ") {\n" << body(b) << "}\n";
  out << ret << " " << symbol << "_(" << params << ") __attribute__((alias(\"" << symbol
      << "\")));\n\n";
}

}  // namespace

std::string write_cpp_bindings(const std::vector<Binding>& bindings) {
  std::ostringstream out;
  out << "// SPDX-License-Identifier: Apache-2.0\n"
         "// The Fortran bindings of mpi.h, written by simmpi_fortran_gen from\n"
         "// libsimmpi/fortran/bindings.tbl: do not edit.\n"
         "#include <cstddef>\n\n"
         "#include \"libsimmpi/fortran/custom_bindings.hpp\"\n"
         "#include \"libsimmpi/fortran/fortran_args.hpp\"\n\n"
         "namespace fortran = simmpi::mpi::fortran;\n\n"
         "#pragma GCC visibility push(default)\n"
         "extern \"C\" {\n\n";
  for (const Binding& b : bindings) write_binding(out, b);
  out << "}  // extern \"C\"\n#pragma GCC visibility pop\n";
  return out.str();
}

}  // namespace simmpi::mpi::fortran
