// SPDX-License-Identifier: Apache-2.0
// Writes mpi_f08.f90, the source of `use mpi_f08` (MPI-4.1 19.1.2, 19.3.5): TYPE(MPI_Comm) and
// the other handle types (BIND(C), one INTEGER MPI_VAL, the C handle itself), TYPE(MPI_Status)
// (the bytes of the C status: MPI_SOURCE, MPI_TAG, MPI_ERROR and private fields), the constants
// (handles as named constants of their types), the sentinels in the COMMON blocks of mpif.h and
// the mpi module, == and /= on handles, and an interface for each binding. Like the mpi module,
// it is interfaces only: every procedure is in libsimmpi, so the module has no object code.
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"

namespace simmpi::mpi::fortran {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_handle(const std::string& c_type) {
  for (const HandleType& t : handle_types())
    if (t.c_type == c_type) return true;
  return false;
}

// The sentinels, as in mpif.h but with mpi_f08's types: a status is TYPE(MPI_Status), of the
// same size as INTEGER(MPI_STATUS_SIZE), so each block keeps its layout.
const char* const kSentinels[] = {
    "integer :: MPI_BOTTOM, MPI_IN_PLACE",
    "integer :: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY",
    "type(MPI_Status) :: MPI_STATUS_IGNORE",
    "type(MPI_Status) :: MPI_STATUSES_IGNORE(1)",
    "integer :: MPI_ERRCODES_IGNORE(1)",
    "character(len=1) :: MPI_ARGVS_NULL(1,1)",
    "character(len=1) :: MPI_ARGV_NULL(1)",
    "common /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE",
    "common /MPIPRIV2/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE",
    "common /MPIFCMB5/ MPI_UNWEIGHTED",
    "common /MPIFCMB9/ MPI_WEIGHTS_EMPTY",
    "common /MPIPRIVC/ MPI_ARGVS_NULL, MPI_ARGV_NULL",
    "external :: MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, MPI_COMM_DUP_FN",
    "external :: MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, MPI_WIN_DUP_FN",
    "external :: MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, MPI_TYPE_DUP_FN",
};

void write_types(std::ostringstream& out) {
  for (const HandleType& t : handle_types())
    out << "  type, bind(C) :: " << t.c_type << "\n    integer :: MPI_VAL\n  end type " << t.c_type
        << "\n";
  out << "  type, private :: not_provided_by_simmpi\n    integer :: unused\n"
         "  end type not_provided_by_simmpi\n";
  out << "  type, bind(C) :: MPI_Status\n"
         "    integer :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n"
         "    integer, private :: simmpi_cancelled, simmpi_bytes_low, simmpi_bytes_high\n"
         "  end type MPI_Status\n";
}

void write_constants(std::ostringstream& out, const std::vector<Constant>& constants) {
  for (const Constant& c : fortran_constants(constants)) {
    std::string type = handle_type_of(c);
    if (type.empty())
      out << "  integer, parameter :: " << c.name << " = " << c.value << "\n";
    else
      out << "  type(" << type << "), parameter :: " << c.name << " = " << type << "(" << c.value
          << ")\n";
  }
}

// == and /= on each handle type: external functions of libsimmpi (simmpi_f08_comm_eq_...).
void write_operators(std::ostringstream& out) {
  for (const char* op : {"eq", "ne"}) {
    out << "  interface operator(" << (op == std::string("eq") ? "==" : "/=") << ")\n";
    for (const HandleType& t : handle_types()) {
      std::string f = "simmpi_f08_" + lower(t.c_type.substr(4)) + "_" + op;
      out << "    logical function " << f << "(a, b)\n      import :: " << t.c_type
          << "\n      type(" << t.c_type << "), intent(in) :: a, b\n    end function " << f << "\n";
    }
    out << "  end interface\n";
  }
}

// The callbacks' abstract interfaces (MPI-4.1 A.4), for `PROCEDURE(MPI_User_function) :: f`.
// The procedures that take callbacks declare them EXTERNAL, as the mpi module does.
std::string abstract_interfaces() {
  std::string out = "  abstract interface\n";
  auto sub = [&out](const std::string& name, const std::string& args,
                    const std::vector<std::string>& decls) {
    out += "    subroutine " + name + "(" + args + ")\n      import\n      implicit none\n";
    for (const std::string& d : decls) out += "      " + d + "\n";
    out += "    end subroutine " + name + "\n";
  };
  sub("MPI_User_function", "invec, inoutvec, len, datatype",
      {"type(c_ptr), value :: invec, inoutvec", "integer :: len",
       "type(MPI_Datatype) :: datatype"});
  for (const char* object : {"Comm", "Win", "Type"}) {
    std::string o = object, handle = o == "Type" ? "MPI_Datatype" : "MPI_" + o;
    std::string h = o == "Comm" ? "oldcomm" : o == "Win" ? "oldwin" : "oldtype";
    sub("MPI_" + o + "_copy_attr_function",
        h + ", keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror",
        {"type(" + handle + ") :: " + h, "integer :: keyval, ierror",
         "integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out",
         "logical :: flag"});
    sub("MPI_" + o + "_delete_attr_function", "handle, keyval, attribute_val, extra_state, ierror",
        {"type(" + handle + ") :: handle", "integer :: keyval, ierror",
         "integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state"});
  }
  for (const char* object : {"Comm", "Win", "File", "Session"})
    sub(std::string("MPI_") + object + "_errhandler_function", "handle, error_code",
        {std::string("type(MPI_") + object + ") :: handle", "integer :: error_code"});
  sub("MPI_Grequest_query_function", "extra_state, status, ierror",
      {"integer(kind=MPI_ADDRESS_KIND) :: extra_state", "type(MPI_Status) :: status",
       "integer :: ierror"});
  sub("MPI_Grequest_free_function", "extra_state, ierror",
      {"integer(kind=MPI_ADDRESS_KIND) :: extra_state", "integer :: ierror"});
  sub("MPI_Grequest_cancel_function", "extra_state, complete, ierror",
      {"integer(kind=MPI_ADDRESS_KIND) :: extra_state", "logical :: complete",
       "integer :: ierror"});
  return out + "  end interface\n";
}

// Nonblocking and persistent calls, whose buffers MPI uses after the call returns.
bool is_asynchronous(const Binding& b) {
  const std::string& n = b.proto.name;
  return (n.size() > 5 && n.compare(0, 5, "MPI_I") == 0 && std::islower(n[5])) ||
         n.find("_init") != std::string::npos || n.compare(0, 5, "MPI_R") == 0 ||
         n.compare(0, 10, "MPI_File_i") == 0 || n == "MPI_Buffer_attach" ||
         n == "MPI_Comm_attach_buffer" || n == "MPI_Session_attach_buffer";
}

std::string type_of(const FParam& p) {
  switch (p.ftype) {
    case FType::Logical:
      return "logical";
    case FType::Address:
      return "integer(kind=MPI_ADDRESS_KIND)";
    case FType::Count:
      return "integer(kind=MPI_COUNT_KIND)";
    case FType::Offset:
      return "integer(kind=MPI_OFFSET_KIND)";
    case FType::Status:
      return "type(MPI_Status)";
    default:
      return is_handle(p.c.type) ? "type(" + p.c.type + ")" : "integer";
  }
}

bool is_input(const FParam& p) {
  return p.conv == Conv::Value || p.conv == Conv::LogicalValue || p.conv == Conv::StatusIn ||
         p.conv == Conv::StringIn || p.conv == Conv::StringArray || p.conv == Conv::Argvs ||
         (p.c.is_const && p.ftype != FType::Choice);
}

std::string declaration(const Binding& b, const FParam& p) {
  const std::string& n = p.c.name;
  std::string intent = is_input(p) ? ", intent(in)" : "";
  switch (p.ftype) {
    case FType::Choice:
      if (b.custom) return "type(c_ptr), intent(out) :: " + n;  // a detached buffer's address
      return "type(*), dimension(..)" + std::string(p.c.is_const ? ", intent(in)" : "") +
             (is_asynchronous(b) ? ", asynchronous" : "") + " :: " + n;
    case FType::Character:
      return "character(len=*)" + intent + " :: " + n +
             (p.conv == Conv::Argvs         ? "(" + p.length + ",*)"
              : p.conv == Conv::StringArray ? "(*)"
                                            : "");
    case FType::Procedure:
      return "external :: " + n;
    default:
      break;
  }
  std::string d = type_of(p) + intent + " :: " + n +
                  (!p.array           ? ""
                   : p.c.extents == 2 ? "(3,*)"
                                      : "(*)");
  if (p.conv == Conv::Weights) d = "!GCC$ ATTRIBUTES NO_ARG_CHECK :: " + n + "\n" + d;
  return d;
}

void write_interface(std::ostringstream& out, const Binding& b) {
  std::vector<std::string> args, decls;
  for (const FParam& p : b.params) {
    if (p.conv == Conv::Omit) continue;
    args.push_back(p.c.name);
    decls.push_back(declaration(b, p));
  }
  std::string kind = b.is_function() ? "function" : "subroutine";
  if (b.is_function()) {
    decls.push_back((b.proto.ret == "double"     ? std::string("double precision")
                     : b.proto.ret == "MPI_Aint" ? std::string("integer(kind=MPI_ADDRESS_KIND)")
                                                 : std::string("integer")) +
                    " :: mpi_result");
  } else {
    args.push_back("ierror");
    decls.push_back("integer, optional, intent(out) :: ierror");
  }
  out << "    " << call_line(kind + " " + b.proto.name, args)
      << (b.is_function() ? " result(mpi_result)" : "")
      << (f08_has_choice(b) ? " &\n        bind(C, name=\"" + f08_symbol(b.proto.name) + "\")" : "")
      << "\n      import\n      implicit none\n";
  for (const std::string& d : decls) {
    std::istringstream lines(d);
    for (std::string line; std::getline(lines, line);) out << "      " << line << "\n";
  }
  out << "    end " << kind << " " << b.proto.name << "\n";
}

// A procedure mpi_f08 does not provide: without an interface, a call would compile as an
// external call to the mpi module's entry point, with mpi_f08's arguments and no IERROR. This
// interface makes every call a compile error naming the procedure and, through its one dummy's
// type and name, why.
void write_absent(std::ostringstream& out, const Binding& b) {
  std::string kind = b.is_function() ? "function" : "subroutine";
  out << "    " << kind << " " << b.proto.name << "(absent_from_simmpi_mpi_f08)\n"
      << "      import :: not_provided_by_simmpi\n"
      << "      type(not_provided_by_simmpi) :: absent_from_simmpi_mpi_f08\n"
      << "    end " << kind << " " << b.proto.name << "\n";
}

// Whether a generic name can hold both `a` and `b`: they differ in their number of arguments
// or in an integer argument's kind at the same place (MPI_Send's count: INTEGER or
// INTEGER(KIND=MPI_COUNT_KIND)). MPI_ADDRESS_KIND, MPI_COUNT_KIND and MPI_OFFSET_KIND are all 8,
// so MPI_Type_get_extent (addresses) and its _c form (counts) keep their own names.
bool is_distinguishable(const Binding& a, const Binding& b) {
  if (a.params.size() != b.params.size()) return true;
  auto kind = [](FType t) {
    return t == FType::Integer                                              ? 4
           : t == FType::Address || t == FType::Count || t == FType::Offset ? 8
                                                                            : 0;
  };
  for (std::size_t i = 0; i < a.params.size(); ++i) {
    int x = kind(a.params[i].ftype), y = kind(b.params[i].ftype);
    if (x && y && x != y) return true;
  }
  return false;
}

const Binding* base_of(const std::vector<Binding>& bindings, const Binding& large) {
  const std::string base = large.proto.name.substr(0, large.proto.name.size() - 2);
  for (const Binding& b : bindings)
    if (b.proto.name == base) return &b;
  throw GenError(large.proto.name + ": no int form is bound");
}

}  // namespace

std::string f08_excluded(const Binding& b) {
  bool procedure = false;
  for (const FParam& p : b.params) procedure |= p.ftype == FType::Procedure;
  for (const FParam& p : b.params) {
    if (procedure && p.ftype == FType::Choice)
      return "its extra state is an INTEGER(KIND=MPI_ADDRESS_KIND) beside Fortran procedures, "
             "which no rule gives a BIND(C) form (simmpi refuses user data representations "
             "anyway)";
    if (p.conv == Conv::NarrowOut || p.conv == Conv::WidenArray || p.conv == Conv::WidenValue ||
        (p.conv == Conv::Opaque && p.ftype == FType::Integer))
      return "an MPI-1 form with INTEGER addresses or attribute values, which mpi_f08 does not "
             "have";
  }
  return "";
}

bool f08_has_descriptors(const Binding& b) {
  return !b.custom && f08_has_choice(b);
}

bool f08_has_choice(const Binding& b) {
  for (const FParam& p : b.params)
    if (p.ftype == FType::Choice) return true;
  return false;
}

std::string f08_symbol(const std::string& c_name) {
  return c_name + "_f08";
}

std::string write_mpi_f08_module(const std::vector<Constant>& constants,
                                 const std::vector<Binding>& bindings) {
  std::ostringstream out;
  out << "! SPDX-License-Identifier: Apache-2.0\n"
         "! simmpi's mpi_f08 module (use mpi_f08), written by simmpi_fortran_gen from mpi.h and\n"
         "! libsimmpi/fortran/bindings.tbl: do not edit.\n"
         "module mpi_f08\n"
         "  use, intrinsic :: iso_c_binding, only: c_ptr\n"
         "  implicit none\n"
         "  private :: c_ptr\n";
  write_types(out);
  write_constants(out, constants);
  out << "  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .false.\n"
         "  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.\n";
  for (const char* s : kSentinels) out << "  " << s << "\n";
  write_operators(out);
  out << abstract_interfaces();
  // A large-count form shares its int form's name when the two are told apart by an argument's
  // kind; otherwise (MPI_Op_create_c, whose procedures differ only in their own arguments) it
  // keeps its own name.
  std::map<std::string, const Binding*> large;
  for (const Binding& b : bindings)
    if (b.f08_only) large[b.proto.name.substr(0, b.proto.name.size() - 2)] = &b;
  auto overload = [&large](const Binding& b) -> const Binding* {
    auto it = large.find(b.proto.name);
    return it != large.end() && is_distinguishable(b, *it->second) ? it->second : nullptr;
  };
  for (const Binding& b : bindings) {
    const Binding* c = b.f08_only || !f08_excluded(b).empty() ? nullptr : overload(b);
    if (!c) continue;
    out << "  interface " << b.proto.name << "\n";
    write_interface(out, b);
    write_interface(out, *c);
    out << "  end interface " << b.proto.name << "\n";
  }
  out << "  interface\n";
  for (const Binding& b : bindings) {
    if (b.f08_only) {
      if (!overload(*base_of(bindings, b))) write_interface(out, b);
    } else if (!f08_excluded(b).empty()) {
      write_absent(out, b);
    } else if (!overload(b)) {
      write_interface(out, b);
    }
  }
  // MPI_F_SYNC_REG (MPI-4.1 19.1.17): an external call with the buffer, which the compiler must
  // assume reads and writes it; libsimmpi's does nothing.
  out << sizeof_interface()
      << "    subroutine MPI_F_sync_reg(buf) bind(C, name=\"simmpi_f_sync_reg\")\n"
         "      implicit none\n"
         "      type(*), dimension(..), asynchronous :: buf\n"
         "    end subroutine MPI_F_sync_reg\n"
         "  end interface\nend module mpi_f08\n";
  return out.str();
}

}  // namespace simmpi::mpi::fortran
