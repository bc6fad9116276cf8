// SPDX-License-Identifier: Apache-2.0
// Reduction kernels: one template per operation family, dispatched on the element kind.
#include "libsimmpi/core/reduce_op.hpp"

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "libsimmpi/core/datatype.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

enum class Family { Arith, MinMax, Logical, Bitwise, Loc, Replace, NoOp };

struct OpDef {
  const char* name;
  Family family;
};

constexpr OpDef kOps[] = {
    {"MPI_OP_NULL", Family::NoOp}, {"MPI_MAX", Family::MinMax},      {"MPI_MIN", Family::MinMax},
    {"MPI_SUM", Family::Arith},    {"MPI_PROD", Family::Arith},      {"MPI_LAND", Family::Logical},
    {"MPI_BAND", Family::Bitwise}, {"MPI_LOR", Family::Logical},     {"MPI_BOR", Family::Bitwise},
    {"MPI_LXOR", Family::Logical}, {"MPI_BXOR", Family::Bitwise},    {"MPI_MINLOC", Family::Loc},
    {"MPI_MAXLOC", Family::Loc},   {"MPI_REPLACE", Family::Replace}, {"MPI_NO_OP", Family::NoOp},
};

unsigned op_index(MPI_Op op) {
  return static_cast<unsigned>(op) & 0xFFFFFFu;
}

// User operations take the handle indices after the predefined ones. Entries are never reused
// for another function, so a collective still running with a freed operation keeps calling it.
// One of fn and fn_c is set (MPI_Op_create or MPI_Op_create_c).
struct UserOp {
  UserFunction fn;
  LargeUserFunction fn_c;
  bool commutative;
  int references;
  void call(void* in, void* inout, int count, MPI_Datatype* handle) const {
    if (fn) {
      fn(in, inout, &count, handle);
    } else {
      MPI_Count len = count;
      fn_c(in, inout, &len, handle);
    }
  }
};
std::vector<UserOp>& user_ops() {
  static std::vector<UserOp> ops;
  return ops;
}

// The user operation behind `op`, live or not; nullptr for any other handle.
UserOp* find_user_op(MPI_Op op) {
  auto h = static_cast<unsigned>(op);
  if ((h >> 24) != SIMMPI_KIND_OP || op_index(op) < std::size(kOps)) return nullptr;
  std::size_t i = op_index(op) - std::size(kOps);
  return i < user_ops().size() ? &user_ops()[i] : nullptr;
}

template <class T>
constexpr bool is_complex = false;
template <class T>
constexpr bool is_complex<std::complex<T>> = true;

template <class T>
void arith(MPI_Op op, const T* in, T* io, std::size_t n) {
  if (op == MPI_SUM)
    for (std::size_t i = 0; i < n; ++i) io[i] = in[i] + io[i];
  else
    for (std::size_t i = 0; i < n; ++i) io[i] = in[i] * io[i];
}

template <class T>
void minmax(MPI_Op op, const T* in, T* io, std::size_t n) {
  if (op == MPI_MAX)
    for (std::size_t i = 0; i < n; ++i) io[i] = in[i] > io[i] ? in[i] : io[i];
  else
    for (std::size_t i = 0; i < n; ++i) io[i] = in[i] < io[i] ? in[i] : io[i];
}

template <class T>
void logical(MPI_Op op, const T* in, T* io, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    bool a = in[i] != T(0), b = io[i] != T(0);
    io[i] = static_cast<T>(op == MPI_LAND ? (a && b) : op == MPI_LOR ? (a || b) : (a != b));
  }
}

template <class T>
void bitwise(MPI_Op op, const T* in, T* io, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    io[i] = static_cast<T>(op == MPI_BAND  ? (in[i] & io[i])
                           : op == MPI_BOR ? (in[i] | io[i])
                                           : (in[i] ^ io[i]));
}

// MINLOC/MAXLOC: the extreme value, and on a tie the smaller index (MPI-3.1 5.9.4). Pairs are
// packed, value then index with no padding (MPI_DOUBLE_INT is 12 bytes), so members are read
// with memcpy.
template <class V, class I>
void loc(MPI_Op op, const char* in, char* io, std::size_t n) {
  constexpr std::size_t kPair = sizeof(V) + sizeof(I);
  for (std::size_t i = 0; i < n; ++i, in += kPair, io += kPair) {
    V a, b;
    I ia, ib;
    std::memcpy(&a, in, sizeof a);
    std::memcpy(&b, io, sizeof b);
    std::memcpy(&ia, in + sizeof(V), sizeof ia);
    std::memcpy(&ib, io + sizeof(V), sizeof ib);
    bool better = op == MPI_MAXLOC ? a > b : a < b;
    if (better || (a == b && ia < ib)) std::memcpy(io, in, kPair);
  }
}

// Calls f(T*) with the element type of `e`; returns false for kinds outside `family`.
template <class F>
bool with_scalar(Elem e, bool integers, bool floats, bool complexes, F&& f) {
  switch (e) {
    case Elem::I8:
      return integers && (f(static_cast<std::int8_t*>(nullptr)), true);
    case Elem::U8:
      return integers && (f(static_cast<std::uint8_t*>(nullptr)), true);
    case Elem::I16:
      return integers && (f(static_cast<std::int16_t*>(nullptr)), true);
    case Elem::U16:
      return integers && (f(static_cast<std::uint16_t*>(nullptr)), true);
    case Elem::I32:
      return integers && (f(static_cast<std::int32_t*>(nullptr)), true);
    case Elem::U32:
      return integers && (f(static_cast<std::uint32_t*>(nullptr)), true);
    case Elem::I64:
      return integers && (f(static_cast<std::int64_t*>(nullptr)), true);
    case Elem::U64:
      return integers && (f(static_cast<std::uint64_t*>(nullptr)), true);
    case Elem::F32:
      return floats && (f(static_cast<float*>(nullptr)), true);
    case Elem::F64:
      return floats && (f(static_cast<double*>(nullptr)), true);
    case Elem::F80:
      return floats && (f(static_cast<long double*>(nullptr)), true);
    case Elem::CF32:
      return complexes && (f(static_cast<std::complex<float>*>(nullptr)), true);
    case Elem::CF64:
      return complexes && (f(static_cast<std::complex<double>*>(nullptr)), true);
    case Elem::CF80:
      return complexes && (f(static_cast<std::complex<long double>*>(nullptr)), true);
    default:
      return false;
  }
}

bool dispatch_loc(Elem e, MPI_Op op, const void* in, void* io, std::size_t n, bool run) {
  auto go = [&](auto* value, auto* index) {
    using V = std::remove_pointer_t<decltype(value)>;
    using I = std::remove_pointer_t<decltype(index)>;
    if (run) loc<V, I>(op, static_cast<const char*>(in), static_cast<char*>(io), n);
    return true;
  };
  int* i = nullptr;
  switch (e) {
    case Elem::FloatInt:
      return go(static_cast<float*>(nullptr), i);
    case Elem::DoubleInt:
      return go(static_cast<double*>(nullptr), i);
    case Elem::LongInt:
      return go(static_cast<long*>(nullptr), i);
    case Elem::IntInt:
      return go(i, i);
    case Elem::ShortInt:
      return go(static_cast<short*>(nullptr), i);
    case Elem::LongDoubleInt:
      return go(static_cast<long double*>(nullptr), i);
    case Elem::FloatFloat:
      return go(static_cast<float*>(nullptr), static_cast<float*>(nullptr));
    case Elem::DoubleDouble:
      return go(static_cast<double*>(nullptr), static_cast<double*>(nullptr));
    default:
      return false;
  }
}

// Applies (run=true) or only checks support for (run=false) `op` on `count` elements of `type`
// in packed form. A derived type counts as its basic elements: a contiguous of 4 doubles is 4
// doubles (MPI-3.1 5.9.2 allows derived types of one predefined kind).
bool apply_or_check(MPI_Op op, const Datatype& type, const void* in, void* io, int count,
                    bool run) {
  Elem e = type.elem;
  std::size_t unit = type.basic_size;
  std::size_t n = unit ? type.size / unit * static_cast<std::size_t>(count) : 0;
  switch (kOps[op_index(op)].family) {
    case Family::Arith:
      return with_scalar(e, true, true, true, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if (run) arith(op, static_cast<const T*>(in), static_cast<T*>(io), n);
      });
    case Family::MinMax:
      return with_scalar(e, true, true, false, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (!is_complex<T>)
          if (run) minmax(op, static_cast<const T*>(in), static_cast<T*>(io), n);
      });
    case Family::Logical:
      if (e == Elem::Bool) e = unit == 1 ? Elem::U8 : Elem::I32;
      return with_scalar(e, true, false, false, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_integral_v<T>)
          if (run) logical(op, static_cast<const T*>(in), static_cast<T*>(io), n);
      });
    case Family::Bitwise:
      if (e == Elem::Byte) e = Elem::U8;
      return with_scalar(e, true, false, false, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_integral_v<T>)
          if (run) bitwise(op, static_cast<const T*>(in), static_cast<T*>(io), n);
      });
    case Family::Loc:
      return dispatch_loc(e, op, in, io, n, run);
    case Family::Replace:
      if (run) std::memcpy(io, in, type.size * static_cast<std::size_t>(count));
      return true;
    case Family::NoOp:
      return true;
  }
  return false;
}

}  // namespace

bool is_valid_op(MPI_Op op) {
  auto h = static_cast<unsigned>(op);
  if (const UserOp* u = find_user_op(op)) return u->references > 0;
  return (h >> 24) == SIMMPI_KIND_OP && op_index(op) >= 1 && op_index(op) < std::size(kOps);
}

const char* op_name(MPI_Op op) {
  if (find_user_op(op)) return "a user-defined operation";
  return is_valid_op(op) ? kOps[op_index(op)].name : "invalid op";
}

bool op_supports(MPI_Op op, const Datatype& type) {
  if (find_user_op(op)) return true;
  return apply_or_check(op, type, nullptr, nullptr, 0, false);
}

bool is_user_op(MPI_Op op) {
  return find_user_op(op) != nullptr;
}

bool is_commutative(MPI_Op op) {
  const UserOp* u = find_user_op(op);
  return !u || u->commutative;
}

void apply_op(MPI_Op op, MPI_Datatype handle, const Datatype& type, const void* in, void* inout,
              int count, const Datatype* packed_from) {
  if (UserOp* u = find_user_op(op)) {
    if (count <= 0) return;
    const Datatype* layout = packed_from;
    if (!layout || layout->contiguous || layout->extent <= 0) {
      u->call(const_cast<void*>(in), inout, count, &handle);
      return;
    }
    // Lay both packed operands out as the program's type says, call the function, and pack the
    // result back.
    const std::size_t span = static_cast<std::size_t>(layout->extent) * (count - 1) +
                             static_cast<std::size_t>(layout->true_extent);
    std::vector<char> in_laid(span), inout_laid(span);
    char* in_base = in_laid.data() - layout->true_lb;  // element 0's origin
    char* inout_base = inout_laid.data() - layout->true_lb;
    unpack(in, count, *layout, in_base);
    unpack(inout, count, *layout, inout_base);
    u->call(in_base, inout_base, count, &handle);
    pack(inout_base, count, *layout, inout);
    return;
  }
  apply_op(op, type, in, inout, count);
}

namespace {

MPI_Op register_user_op(UserFunction fn, LargeUserFunction fn_c, bool commutative) {
  auto& ops = user_ops();
  std::size_t i = 0;
  while (i < ops.size() &&
         !(ops[i].fn == fn && ops[i].fn_c == fn_c && ops[i].commutative == commutative))
    ++i;
  if (i == ops.size()) ops.push_back(UserOp{fn, fn_c, commutative, 0});
  ++ops[i].references;
  return SIMMPI_HANDLE(SIMMPI_KIND_OP, std::size(kOps) + i);
}

}  // namespace

MPI_Op create_user_op(UserFunction fn, bool commutative) {
  return register_user_op(fn, nullptr, commutative);
}

MPI_Op create_user_op(LargeUserFunction fn, bool commutative) {
  return register_user_op(nullptr, fn, commutative);
}

bool free_user_op(MPI_Op op) {
  UserOp* u = find_user_op(op);
  if (!u || u->references == 0) return false;
  --u->references;
  return true;
}

void apply_op(MPI_Op op, const Datatype& type, const void* in, void* inout, int count) {
  bool ok = apply_or_check(op, type, in, inout, count, true);
  SIMMPI_ASSERT(ok, "%s on %s was not rejected by validation", op_name(op), type.name);
}

}  // namespace simmpi::mpi
