// SPDX-License-Identifier: Apache-2.0
// The rules that turn a C parameter of mpi.h into a Fortran argument (MPI-3.1 chapter 17.1 and
// the Fortran bindings listed with each function): its Fortran type and how it is converted.
#include <algorithm>
#include <iterator>
#include <optional>
#include <set>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"

namespace simmpi::mpi::fortran {
namespace {

// C types that are a default INTEGER in Fortran: int and every handle.
const std::set<std::string> kIntegers = {
    "int",         "MPI_Comm",       "MPI_Group",  "MPI_Datatype", "MPI_Op",
    "MPI_Request", "MPI_Errhandler", "MPI_Info",   "MPI_Win",      "MPI_File",
    "MPI_Message", "MPI_Fint",       "MPI_Session"};

// The C ints that are LOGICAL in Fortran, by MPI's parameter names.
const std::set<std::string> kLogicals = {"flag",     "reorder", "commute",    "high",
                                         "weighted", "periods", "remain_dims"};

std::optional<FType> integer_type(const std::string& c_type) {
  if (kIntegers.count(c_type)) return FType::Integer;
  if (c_type == "MPI_Aint") return FType::Address;
  if (c_type == "MPI_Count") return FType::Count;
  if (c_type == "MPI_Offset") return FType::Offset;
  return std::nullopt;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

[[noreturn]] void no_rule(const CPrototype& proto, const CParam& c, const std::string& why) {
  throw GenError(proto.name + ": parameter \"" + c.decl + "\": " + why +
                 "; give its Fortran type (PARAM=integer|address|logical|omit) on the function's "
                 "line of bindings.tbl, or mark the line custom or c_only");
}

// The parameter of `proto` that holds the element count of another one.
std::string length_param(const CPrototype& proto, const CParam& c,
                         std::initializer_list<const char*> names) {
  for (const char* n : names)
    for (const CParam& p : proto.params)
      if (p.name == n) return p.name;
  no_rule(proto, c, "no parameter gives its length");
}

FParam integer_param(const CPrototype& proto, const CParam& c, FType t, const std::string& given) {
  FParam f{c, t, Conv::Pass, c.extents > 0, ""};
  bool logical = given == "logical" || (given.empty() && kLogicals.count(c.name));
  bool narrow = given == "integer" && t == FType::Address;
  if (!given.empty() && given != "logical" && !narrow)
    no_rule(proto, c, "the Fortran type \"" + given + "\" does not apply to it");
  if (logical) f.ftype = FType::Logical;
  if (narrow) f.ftype = FType::Integer;
  if (c.pointers == 0 && c.extents == 0) {
    f.conv = logical ? Conv::LogicalValue : narrow ? Conv::WidenValue : Conv::Value;
  } else if (ends_with(c.name, "weights") && c.pointers == 1) {
    f.conv = Conv::Weights;
    f.array = true;
  } else if (c.name == "index" && c.pointers == 1) {
    f.conv = Conv::IndexOut;
  } else if (c.name == "array_of_indices") {
    f.conv = Conv::IndicesOut;
    f.length = length_param(proto, c, {"outcount"});
  } else if (narrow) {
    f.conv = c.extents > 0 ? Conv::WidenArray : Conv::NarrowOut;
    if (c.extents > 0) f.length = length_param(proto, c, {"count"});
  } else if (c.pointers > 1) {
    no_rule(proto, c, "a pointer to a pointer has no Fortran form");
  }
  return f;
}

FParam status_param(const CPrototype& proto, const CParam& c) {
  FParam f{c, FType::Status, Conv::StatusOut, false, ""};
  if (c.is_const) {
    f.conv = Conv::StatusIn;
  } else if (c.name == "array_of_statuses") {
    f.conv = Conv::Statuses;
    f.array = true;
    f.length = length_param(proto, c, {"count", "incount"});
  }
  return f;
}

// MPI-4.1's string results whose length is an INTEGER argument of its own (MPI_INFO_GET_STRING's
// buflen, MPI_SESSION_GET_NTH_PSET's pset_len): in C that length counts the terminating NUL, in
// Fortran it does not (MPI-4.1 10.2, 11.3.2).
const char* const kStringLengths[] = {"buflen", "pset_len"};

const CParam* string_with_length(const CPrototype& proto) {
  for (const CParam& p : proto.params)
    if (p.type == "char" && !p.is_const && p.pointers == 1 && p.extents == 0) return &p;
  return nullptr;
}

bool is_string_length(const CPrototype& proto, const CParam& c) {
  return std::find(std::begin(kStringLengths), std::end(kStringLengths), c.name) !=
             std::end(kStringLengths) &&
         string_with_length(proto);
}

// char*, const char* and const char name[] are a CHARACTER*(*); char* name[] an array of them
// with one hidden length (MPI_COMM_SPAWN's argv, ended by a blank element, or
// array_of_commands, `count` of them); char** name[] MPI_COMM_SPAWN_MULTIPLE's
// array_of_argv(count, *), each row ended by a blank element (MPI-3.1 10.3.3).
FParam string_param(const CPrototype& proto, const CParam& c) {
  if ((c.pointers == 1 && c.extents == 0) || (c.pointers == 0 && c.extents == 1)) {
    Conv conv = c.is_const ? Conv::StringIn : Conv::StringOut;
    std::string length;
    if (!c.is_const && c.extents == 0 && string_with_length(proto) == &c)
      for (const CParam& p : proto.params)
        if (p.pointers == 1 && is_string_length(proto, p)) {
          conv = Conv::StringBuf;
          length = p.name;
        }
    return FParam{c, FType::Character, conv, false, length};
  }
  if (c.pointers == 1 && c.extents == 1)
    return FParam{c, FType::Character, Conv::StringArray, true,
                  c.name == "argv" ? "" : length_param(proto, c, {"count"})};
  if (c.pointers == 2 && c.extents == 1)
    return FParam{c, FType::Character, Conv::Argvs, true, length_param(proto, c, {"count"})};
  no_rule(proto, c, "no rule gives this character array a Fortran form");
}

FParam derive_param(const CPrototype& proto, const CParam& c, const std::string& given,
                    bool custom) {
  if (given == "omit") return FParam{c, FType::Integer, Conv::Omit, false, ""};
  bool pointer = c.pointers == 1 && c.extents == 0;
  if (c.type == "void" && pointer) {
    if (given.empty()) return FParam{c, FType::Choice, Conv::Choice, true, ""};
    if (!custom) no_rule(proto, c, "only a custom binding may give a buffer another type");
    if (given == "address") return FParam{c, FType::Address, Conv::Opaque, false, ""};
    if (given == "integer") return FParam{c, FType::Integer, Conv::Opaque, false, ""};
    no_rule(proto, c, "a buffer can only be given the type address or integer");
  }
  // A callback type: MPI_User_function, MPI_User_function_c (large count)...
  bool callback = ends_with(c.type, "_function") || ends_with(c.type, "_function_c");
  if (!given.empty() && (c.type == "MPI_Status" || c.type == "char" || callback))
    no_rule(proto, c, "its Fortran type is fixed");
  if (callback && pointer) return FParam{c, FType::Procedure, Conv::Procedure, false, ""};
  if (c.type == "MPI_Status" && pointer) return status_param(proto, c);
  if (c.type == "char") return string_param(proto, c);
  if (c.type == "int" && c.pointers == 1 && c.extents == 0 && is_string_length(proto, c))
    return FParam{c, FType::Integer, Conv::StringBufLen, false, string_with_length(proto)->name};
  if (c.type == "int" && c.name == "array_of_errcodes" && c.extents == 1)
    return FParam{c, FType::Integer, Conv::Errcodes, true, ""};
  if (std::optional<FType> t = integer_type(c.type)) return integer_param(proto, c, *t, given);
  no_rule(proto, c, "no rule gives it a Fortran form");
}

}  // namespace

Binding derive_binding(const CPrototype& proto, const TableEntry& entry) {
  Binding b{proto, {}, entry.custom};
  for (const auto& [name, type] : entry.types)
    if (std::none_of(proto.params.begin(), proto.params.end(),
                     [&](const CParam& p) { return p.name == name; }))
      throw GenError("bindings.tbl:" + std::to_string(entry.line) + ": " + proto.name +
                     " has no parameter \"" + name + "\"");
  for (const CParam& c : proto.params) {
    auto it = entry.types.find(c.name);
    b.params.push_back(
        derive_param(proto, c, it == entry.types.end() ? "" : it->second, entry.custom));
  }
  if (b.is_function() && proto.ret != "double" && !integer_type(proto.ret))
    throw GenError(proto.name + ": a Fortran function cannot return " + proto.ret);
  return b;
}

}  // namespace simmpi::mpi::fortran
