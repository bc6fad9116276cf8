// SPDX-License-Identifier: Apache-2.0
// The table of predefined datatypes, in the order of their handles in mpi.h, handle lookup, and
// packing. The pair types of MINLOC/MAXLOC have the sizes of a real MPI: MPI_DOUBLE_INT is 12
// bytes of data in a 16-byte extent, and its data map skips the padding.
#include "libsimmpi/core/datatype.hpp"

#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <cwchar>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/datatype/type_table.hpp"

namespace simmpi::mpi {
namespace {

template <class A, class B>
struct Pair {
  A a;
  B b;
};

Datatype basic(const char* name, std::size_t size, std::size_t align, Elem elem) {
  Datatype t;
  t.name = name;
  t.size = t.basic_size = size;
  t.align = align;
  t.extent = t.true_extent = static_cast<std::ptrdiff_t>(size);
  t.elem = elem;
  t.map.append(Run{0, static_cast<std::int64_t>(size), 1, 0, static_cast<std::int64_t>(size)});
  return t;
}

template <class T>
Datatype entry(const char* name, Elem elem) {
  return basic(name, sizeof(T), alignof(T), elem);
}

// A value and an index as a C struct lays them out; the data map holds the two members only.
template <class A, class B>
Datatype pair(const char* name, Elem elem) {
  using P = Pair<A, B>;
  Datatype t;
  t.name = name;
  t.size = t.basic_size = sizeof(A) + sizeof(B);
  t.extent = static_cast<std::ptrdiff_t>(sizeof(P));
  t.true_extent = static_cast<std::ptrdiff_t>(offsetof(P, b) + sizeof(B));
  t.align = alignof(P);
  t.elem = elem;
  t.contiguous = t.size == sizeof(P);
  t.map.append(Run{0, sizeof(A), 1, 0, sizeof(A)});
  t.map.append(Run{offsetof(P, b), sizeof(B), 1, 0, sizeof(B)});
  return t;
}

}  // namespace

const Datatype kPredefinedTypes[SIMMPI_PREDEFINED_TYPES] = {
    basic("MPI_DATATYPE_NULL", 0, 1, Elem::None),
    entry<char>("MPI_CHAR", Elem::I8),
    entry<signed char>("MPI_SIGNED_CHAR", Elem::I8),
    entry<unsigned char>("MPI_UNSIGNED_CHAR", Elem::U8),
    entry<unsigned char>("MPI_BYTE", Elem::Byte),
    entry<wchar_t>("MPI_WCHAR", Elem::I32),
    entry<short>("MPI_SHORT", Elem::I16),
    entry<unsigned short>("MPI_UNSIGNED_SHORT", Elem::U16),
    entry<int>("MPI_INT", Elem::I32),
    entry<unsigned>("MPI_UNSIGNED", Elem::U32),
    entry<long>("MPI_LONG", Elem::I64),
    entry<unsigned long>("MPI_UNSIGNED_LONG", Elem::U64),
    entry<long long>("MPI_LONG_LONG_INT", Elem::I64),
    entry<unsigned long long>("MPI_UNSIGNED_LONG_LONG", Elem::U64),
    entry<float>("MPI_FLOAT", Elem::F32),
    entry<double>("MPI_DOUBLE", Elem::F64),
    entry<long double>("MPI_LONG_DOUBLE", Elem::F80),
    entry<bool>("MPI_C_BOOL", Elem::Bool),
    entry<std::int8_t>("MPI_INT8_T", Elem::I8),
    entry<std::int16_t>("MPI_INT16_T", Elem::I16),
    entry<std::int32_t>("MPI_INT32_T", Elem::I32),
    entry<std::int64_t>("MPI_INT64_T", Elem::I64),
    entry<std::uint8_t>("MPI_UINT8_T", Elem::U8),
    entry<std::uint16_t>("MPI_UINT16_T", Elem::U16),
    entry<std::uint32_t>("MPI_UINT32_T", Elem::U32),
    entry<std::uint64_t>("MPI_UINT64_T", Elem::U64),
    entry<MPI_Aint>("MPI_AINT", Elem::I64),
    entry<MPI_Count>("MPI_COUNT", Elem::I64),
    entry<MPI_Offset>("MPI_OFFSET", Elem::I64),
    entry<std::complex<float>>("MPI_C_COMPLEX", Elem::CF32),  // MPI_C_FLOAT_COMPLEX too
    entry<std::complex<double>>("MPI_C_DOUBLE_COMPLEX", Elem::CF64),
    entry<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX", Elem::CF80),
    entry<char>("MPI_PACKED", Elem::None),
    pair<float, int>("MPI_FLOAT_INT", Elem::FloatInt),
    pair<double, int>("MPI_DOUBLE_INT", Elem::DoubleInt),
    pair<long, int>("MPI_LONG_INT", Elem::LongInt),
    pair<int, int>("MPI_2INT", Elem::IntInt),
    pair<short, int>("MPI_SHORT_INT", Elem::ShortInt),
    pair<long double, int>("MPI_LONG_DOUBLE_INT", Elem::LongDoubleInt),
    entry<bool>("MPI_CXX_BOOL", Elem::Bool),
    entry<std::complex<float>>("MPI_CXX_FLOAT_COMPLEX", Elem::CF32),
    entry<std::complex<double>>("MPI_CXX_DOUBLE_COMPLEX", Elem::CF64),
    entry<std::complex<long double>>("MPI_CXX_LONG_DOUBLE_COMPLEX", Elem::CF80),
    entry<char>("MPI_CHARACTER", Elem::None),
    entry<std::int32_t>("MPI_INTEGER", Elem::I32),
    entry<float>("MPI_REAL", Elem::F32),
    entry<double>("MPI_DOUBLE_PRECISION", Elem::F64),
    entry<std::complex<float>>("MPI_COMPLEX", Elem::CF32),
    entry<std::complex<double>>("MPI_DOUBLE_COMPLEX", Elem::CF64),
    entry<std::int32_t>("MPI_LOGICAL", Elem::Bool),
    pair<float, float>("MPI_2REAL", Elem::FloatFloat),
    pair<double, double>("MPI_2DOUBLE_PRECISION", Elem::DoubleDouble),
    pair<int, int>("MPI_2INTEGER", Elem::IntInt),
    entry<std::int8_t>("MPI_INTEGER1", Elem::I8),
    entry<std::int16_t>("MPI_INTEGER2", Elem::I16),
    entry<std::int32_t>("MPI_INTEGER4", Elem::I32),
    entry<std::int64_t>("MPI_INTEGER8", Elem::I64),
    entry<float>("MPI_REAL4", Elem::F32),
    entry<double>("MPI_REAL8", Elem::F64),
    entry<long double>("MPI_REAL16", Elem::F80),
    entry<std::complex<float>>("MPI_COMPLEX8", Elem::CF32),
    entry<std::complex<double>>("MPI_COMPLEX16", Elem::CF64),
};

namespace {

unsigned handle_index(MPI_Datatype handle) {
  return static_cast<unsigned>(handle) & 0xFFFFFFu;
}

bool is_datatype_handle(MPI_Datatype handle) {
  return (static_cast<unsigned>(handle) >> 24) == SIMMPI_KIND_DATATYPE;
}

std::intptr_t address(const void* p) {
  return reinterpret_cast<std::intptr_t>(p);
}

}  // namespace

void TypeRef::destroy(const Datatype* t) {
  delete t;
}

const Datatype* find_datatype(MPI_Datatype handle, int rank) {
  if (!is_datatype_handle(handle)) return nullptr;
  unsigned index = handle_index(handle);
  if (index == 0) return nullptr;
  if (index < SIMMPI_PREDEFINED_TYPES) return &kPredefinedTypes[index];
  return type_table().find(rank, handle);
}

const Datatype* find_datatype(MPI_Datatype handle) {
  if (is_datatype_handle(handle) && handle_index(handle) < SIMMPI_PREDEFINED_TYPES)
    return find_datatype(handle, -1);
  return find_datatype(handle, World::get().current_rank());
}

MPI_Datatype predefined_handle(const Datatype& t) {
  if (t.derived || &t < kPredefinedTypes || &t >= kPredefinedTypes + SIMMPI_PREDEFINED_TYPES)
    return MPI_DATATYPE_NULL;
  return SIMMPI_TYPE(&t - kPredefinedTypes);
}

const char* datatype_name(MPI_Datatype handle) {
  if (is_datatype_handle(handle) && handle_index(handle) < SIMMPI_PREDEFINED_TYPES)
    return kPredefinedTypes[handle_index(handle)].name;
  if (World::exists())
    if (const Datatype* t = find_datatype(handle)) return t->name;
  thread_local char buf[40];
  std::snprintf(buf, sizeof buf, "datatype 0x%08x", static_cast<unsigned>(handle));
  return buf;
}

void pack(const void* src, std::int64_t count, const Datatype& type, void* dst,
          const AddressMap& mem) {
  pack_bytes(src, count, type, type.size * static_cast<std::uint64_t>(count), dst, mem);
}

void unpack(const void* src, std::int64_t count, const Datatype& type, void* dst,
            const AddressMap& mem) {
  unpack_bytes(src, type.size * static_cast<std::uint64_t>(count), count, type, dst, mem);
}

std::uint64_t pack_bytes(const void* src, std::int64_t count, const Datatype& type,
                         std::uint64_t bytes, void* dst, const AddressMap& mem) {
  return type.map.pack(address(src), count, type.extent, bytes, static_cast<char*>(dst), mem);
}

std::uint64_t unpack_bytes(const void* src, std::uint64_t bytes, std::int64_t count,
                           const Datatype& type, void* dst, const AddressMap& mem) {
  return type.map.unpack(static_cast<const char*>(src), bytes, address(dst), count, type.extent,
                         mem);
}

}  // namespace simmpi::mpi
