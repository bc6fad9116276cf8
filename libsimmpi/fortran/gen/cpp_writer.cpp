// SPDX-License-Identifier: Apache-2.0
// Writes fortran_bindings.cpp: one extern "C" entry point per binding, named as gfortran calls it
// (mpi_send_), with aliases for -fsecond-underscore (mpi_send__) and the profiling interface
// (pmpi_send_, pmpi_send__).
#include <cctype>
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
    case Conv::StringArray:
    case Conv::Argvs:
      return "const char* " + n;
    case Conv::StringOut:
    case Conv::StringBuf:
      return "char* " + n;
    case Conv::StringBufLen:
      return "MPI_Fint* " + n;
    case Conv::Opaque:
      return c_type_of(p.ftype) + "* " + n;
    case Conv::Omit:
      return "";
    default:
      return p.c.decl;  // Pass, Weights, IndexOut, IndicesOut, Procedure
  }
}

bool is_string(const FParam& p) {
  return p.ftype == FType::Character;
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
    case Conv::StringArray:
      return helper("StringArray", p, n + ", " + n + "_len, " + (length.empty() ? "-1" : length));
    case Conv::Argvs:
      return helper("ArgvArrays", p, n + ", " + n + "_len, " + length);
    case Conv::StringBuf:
      return helper("StringBuf", p, n + ", " + n + "_len, " + p.length);
    case Conv::StringBufLen:  // the string's helper (declared later) holds C's length
      return {"", p.length + "_c.c_length()", ""};
    case Conv::Errcodes:
      return {"", "fortran::errcodes(" + n + ")", ""};
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

// mpi_f08's IERROR is optional: absent, it arrives as a null pointer.
std::string optional_ierror(const std::string& param) {
  return "  MPI_Fint ierror_absent = MPI_SUCCESS;\n  if (!" + param + ") " + param +
         " = &ierror_absent;\n";
}

void write_binding(std::ostringstream& out, const Binding& b) {
  std::string ret = b.is_function() ? b.proto.ret : "void";
  std::string symbol = fortran_symbol(b.proto.name);
  std::string params = parameter_list(b);
  out << "// " << b.proto.name << (b.custom ? " (custom_bindings.hpp)" : "") << "\n";
  out << ret << " " << symbol << "(" << params << ") {\n"
      << (b.is_function() ? "" : optional_ierror("ierror")) << body(b) << "}\n";
  // The second-underscore name, and the profiling names a PMPI tool calls once it has defined
  // mpi_send_ itself (the program's definition takes precedence over this preemptible one).
  for (const std::string& alias : {symbol + "_", "p" + symbol, "p" + symbol + "_"})
    out << ret << " " << alias << "(" << params << ") __attribute__((alias(\"" << symbol
        << "\")));\n";
  out << "\n";
}

// mpi_f08's entry point of a binding with buffers, MPI_Send_f08 (its interface is BIND(C)):
// each buffer and string arrives as a C descriptor, the rest as in the mpi module's entry point.
// A buffer that is not contiguous (an array section with a stride) is refused with
// MPI_ERR_BUFFER: simmpi's MPI_SUBARRAYS_SUPPORTED is .FALSE.
void write_f08_binding(std::ostringstream& out, const Binding& b) {
  if (b.is_function()) throw GenError(b.proto.name + ": a function with a buffer has no f08 form");
  std::string params, prologue = optional_ierror("ierror"), buffers;
  auto add = [&params](const std::string& d) {
    if (!d.empty()) params += (params.empty() ? "" : ", ") + d;
  };
  for (const FParam& p : b.params) {
    const std::string& n = p.c.name;
    if (p.ftype == FType::Choice) {
      add("const CFI_cdesc_t* " + n + "_desc");
      prologue += "  void* " + n + " = " + n + "_desc->base_addr;\n";
      buffers += std::string(buffers.empty() ? "" : ", ") + "{\"" + n + "\", " + n + "_desc}";
    } else if (p.ftype == FType::Character) {
      add("const CFI_cdesc_t* " + n + "_desc");
      prologue += "  char* " + n + " = static_cast<char*>(" + n +
                  "_desc->base_addr);\n  std::size_t " + n + "_len = " + n + "_desc->elem_len;\n";
    } else {
      add(declaration(p));
    }
  }
  add("MPI_Fint* ierror");
  std::string symbol = f08_symbol(b.proto.name);
  out << "// " << b.proto.name << " (mpi_f08)\n";
  out << "void " << symbol << "(" << params << ") {\n"
      << prologue << "  if (!fortran::contiguous(\"" << b.proto.name << "\", {" << buffers
      << "}, ierror)) return;\n"
      << body(b) << "}\n";
  out << "void P" << symbol << "(" << params << ") __attribute__((alias(\"" << symbol
      << "\")));\n\n";
}

// mpi_f08's == and /= on handles (simmpi_f08_comm_eq_...): LOGICAL functions.
void write_f08_operators(std::ostringstream& out) {
  for (const HandleType& t : handle_types()) {
    std::string name = t.c_type.substr(4);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* op : {"eq", "ne"})
      out << "MPI_Fint simmpi_f08_" << name << "_" << op
          << "_(const MPI_Fint* a, const MPI_Fint* b) {\n"
          << "  return *a " << (op == std::string("eq") ? "==" : "!=") << " *b;\n}\n";
  }
  out << "\n";
}

}  // namespace

std::string write_cpp_bindings(const std::vector<Binding>& bindings) {
  std::ostringstream out;
  out << "// SPDX-License-Identifier: Apache-2.0\n"
         "// The Fortran bindings of mpi.h, written by simmpi_fortran_gen from\n"
         "// libsimmpi/fortran/bindings.tbl: do not edit.\n"
         "#include <ISO_Fortran_binding.h>\n\n"
         "#include <cstddef>\n\n"
         "#include \"libsimmpi/fortran/custom_bindings.hpp\"\n"
         "#include \"libsimmpi/fortran/fortran_args.hpp\"\n\n"
         "namespace fortran = simmpi::mpi::fortran;\n\n"
         "#pragma GCC visibility push(default)\n"
         "extern \"C\" {\n\n";
  // mpi_f08's large-count forms without buffers (mpi_type_size_c_) share the mpi module's
  // convention; those with buffers are BIND(C) (MPI_Send_c_f08), below.
  for (const Binding& b : bindings)
    if (!b.f08_only || !f08_has_descriptors(b)) write_binding(out, b);
  out << "// ---- mpi_f08 ----\n\n";
  for (const Binding& b : bindings)
    if (f08_excluded(b).empty() && f08_has_descriptors(b)) write_f08_binding(out, b);
  write_f08_operators(out);
  out << "}  // extern \"C\"\n#pragma GCC visibility pop\n";
  return out.str();
}

}  // namespace simmpi::mpi::fortran
