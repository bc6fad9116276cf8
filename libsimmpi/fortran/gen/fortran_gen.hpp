// SPDX-License-Identifier: Apache-2.0
// simmpi_fortran_gen, a build tool: it reads the C prototypes of mpi.h and the table
// libsimmpi/fortran/bindings.tbl, and writes the Fortran bindings (C++ entry points mpi_send_...),
// mpif.h and the source of the mpi module. Adding a C function to mpi.h and its name to the table
// is all a new Fortran binding takes.
//
// How a binding is derived: each C parameter gets a Fortran type and a conversion (Conv) from its
// C type and name, by the rules of binding_rules.cpp (a buffer is a choice argument, `int* flag`
// is LOGICAL, `MPI_Status*` a status array, `const char*` a CHARACTER*(*)...); the table may give
// a parameter's Fortran type where MPI's Fortran binding differs from the rule (the MPI-1 calls'
// INTEGER addresses), or hand a whole binding to custom_bindings.hpp.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace simmpi::mpi::fortran {

// A mistake in mpi.h or the table that stops the generator, with its location.
struct GenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A parameter of a C prototype, as written in mpi.h.
struct CParam {
  std::string type;  // base type without const, '*' and "[]": "int", "MPI_Comm", "void"
  std::string name;
  bool is_const = false;
  int pointers = 0;  // number of '*'
  int extents = 0;   // 1 for "name[]", 2 for "name[][3]"
  std::string decl;  // the whole declaration, normalized: "const int dims[]"
};

struct CPrototype {
  std::string ret;   // return type: "int", "double", "MPI_Aint", "MPI_Fint"...
  std::string name;  // "MPI_Send"
  std::vector<CParam> params;
};

// One line of bindings.tbl.
struct TableEntry {
  std::string name;
  bool custom = false;
  bool c_only = false;
  bool unbound = false;  // MPI-3.1 has a Fortran binding, simmpi does not generate it (yet)
  std::map<std::string, std::string> types;  // parameter name -> Fortran type given
  int line = 0;
};

enum class FType { Integer, Address, Count, Offset, Logical, Choice, Character, Procedure, Status };

// How the Fortran argument becomes the C one (see fortran_args.hpp for the helpers).
enum class Conv {
  Value,         // C takes it by value: *x
  LogicalValue,  // a LOGICAL passed to a C int by value: *x != 0
  WidenValue,    // an INTEGER passed to a C MPI_Aint by value
  Pass,          // the same bytes on both sides: handles, ints, LOGICAL(4) (gfortran's .TRUE. is 1)
  WidenArray,    // INTEGER(*) read as const MPI_Aint[]
  NarrowOut,     // an INTEGER written from a C MPI_Aint*
  Choice,        // a buffer (MPI_BOTTOM, MPI_IN_PLACE)
  Weights,       // graph weights (MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY)
  StatusOut,
  StatusIn,
  Statuses,
  StringIn,
  StringOut,
  StringArray,   // CHARACTER*(*) array(*), one hidden length: `length` elements, or up to a blank
                 // one
  Argvs,         // spawn_multiple's CHARACTER*(*) array_of_argv(count, *), rows ended by a blank
  StringBuf,     // a CHARACTER*(*) result whose INTEGER length (`length`) excludes C's NUL
  StringBufLen,  // that length (MPI-4.1: buflen, pset_len); `length` names the string
  Errcodes,      // array_of_errcodes (MPI_ERRCODES_IGNORE)
  IndexOut,      // a request index, 0-based in C, 1-based in Fortran
  IndicesOut,    // array_of_indices, likewise
  Procedure,     // a Fortran procedure C calls with the same by-reference arguments
  Opaque,        // in a custom binding: passed on as the table's Fortran type
  Omit,          // no Fortran argument (MPI_Init's argc, argv); C gets a null pointer
};

struct FParam {
  CParam c;
  FType ftype = FType::Integer;
  Conv conv = Conv::Pass;
  bool array = false;  // the Fortran dummy is an array: x(*), x(3,*) or status(MPI_STATUS_SIZE,*)
  std::string length;  // the parameter that holds the number of elements, when the helper needs it
};

struct Binding {
  CPrototype proto;
  std::vector<FParam> params;
  bool custom = false;
  // A large-count `_c` form, C only in mpif.h and the mpi module: mpi_f08 overloads its int
  // form's name with it (MPI-4.1 19.2).
  bool f08_only = false;
  // C functions that return something other than an error code are Fortran functions, without
  // IERROR (MPI_WTIME, MPI_AINT_ADD).
  bool is_function() const { return proto.ret != "int"; }
};

struct Constant {
  std::string name;
  long long value;
};

// A handle type of mpi.h and the kind its values carry in their top byte (mpi.h's
// SIMMPI_HANDLE): in mpi_f08 each is TYPE(<c_type>) with one INTEGER component MPI_VAL.
struct HandleType {
  std::string c_type;  // "MPI_Comm"
  int kind;
};

// c_prototypes.cpp
std::vector<CPrototype> parse_prototypes(const std::string& header_text);
std::vector<TableEntry> parse_table(const std::string& table_text);
// binding_rules.cpp
Binding derive_binding(const CPrototype& proto, const TableEntry& entry);
// mpi_h_constants.cpp: every object-like MPI_* macro of mpi.h with an integer value; the handle
// types; the handle type of a constant ("" when it is a plain integer).
std::vector<Constant> mpi_h_constants();
const std::vector<HandleType>& handle_types();
std::string handle_type_of(const Constant& c);
// cpp_writer.cpp
std::string write_cpp_bindings(const std::vector<Binding>& bindings);
// fortran_writer.cpp
std::string write_mpif_h(const std::vector<Constant>& constants,
                         const std::vector<Binding>& bindings);
std::string write_mpi_module(const std::vector<Constant>& constants,
                             const std::vector<Binding>& bindings);
// fortran_interfaces.cpp: the module's interface block.
std::string write_interfaces(const std::vector<Binding>& bindings);
// MPI_SIZEOF's interface, the same in both modules: a BIND(C) procedure whose TYPE(*),
// DIMENSION(..) argument arrives as a C descriptor holding its element size.
std::string sizeof_interface();
// "name(a, b, c)" broken into free-form continuation lines.
std::string call_line(const std::string& head, const std::vector<std::string>& args);
// fortran_writer.cpp: the constants Fortran sees (mpi.h's and the Fortran-only ones), and the
// declarations of the sentinels (COMMON blocks shared by mpif.h, mpi and mpi_f08).
std::vector<Constant> fortran_constants(const std::vector<Constant>& c_constants);
// f08_writer.cpp: mpi_f08.f90, the source of `use mpi_f08` (MPI-4.1 19.1.2): handle and status
// types, the constants, the sentinels, == and /=, and an interface for each binding that mpi_f08
// has (f08_excluded says why another has none).
std::string write_mpi_f08_module(const std::vector<Constant>& constants,
                                 const std::vector<Binding>& bindings);
// Why mpi_f08 has no procedure for `b` ("" when it has): MPI-1 forms with INTEGER addresses.
std::string f08_excluded(const Binding& b);
// Whether mpi_f08's procedure for `b` is BIND(C), with the C entry point MPI_<Name>_f08: those
// with buffers (f08_has_choice), which take TYPE(*), DIMENSION(..) buffers as C descriptors in
// generated entry points (f08_has_descriptors), or, in a custom binding, a detached buffer's
// TYPE(C_PTR) address (custom_bindings.hpp). The others share the mpi module's entry point,
// whose IERROR may be absent (a null pointer).
bool f08_has_choice(const Binding& b);
bool f08_has_descriptors(const Binding& b);
std::string f08_symbol(const std::string& c_name);

// The Fortran external name gfortran gives a procedure: lowercase and one trailing underscore.
std::string fortran_symbol(const std::string& c_name);

}  // namespace simmpi::mpi::fortran
