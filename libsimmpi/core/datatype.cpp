// SPDX-License-Identifier: Apache-2.0
// The table of predefined datatypes, in the order of their handles in mpi.h.
#include "libsimmpi/core/datatype.hpp"

#include <complex>
#include <cstdio>
#include <cstring>
#include <cwchar>

namespace simmpi::mpi {
namespace {

template <class A, class B>
struct Pair {
  A a;
  B b;
};

template <class T>
constexpr Datatype entry(const char* name, Elem elem) {
  return {name, sizeof(T), static_cast<std::ptrdiff_t>(sizeof(T)), elem, true};
}

const Datatype kPredefined[SIMMPI_PREDEFINED_TYPES] = {
    {"MPI_DATATYPE_NULL", 0, 0, Elem::None, true},
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
    entry<std::complex<float>>("MPI_C_FLOAT_COMPLEX", Elem::CF32),
    entry<std::complex<double>>("MPI_C_DOUBLE_COMPLEX", Elem::CF64),
    entry<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX", Elem::CF80),
    entry<char>("MPI_PACKED", Elem::None),
    entry<Pair<float, int>>("MPI_FLOAT_INT", Elem::FloatInt),
    entry<Pair<double, int>>("MPI_DOUBLE_INT", Elem::DoubleInt),
    entry<Pair<long, int>>("MPI_LONG_INT", Elem::LongInt),
    entry<Pair<int, int>>("MPI_2INT", Elem::IntInt),
    entry<Pair<short, int>>("MPI_SHORT_INT", Elem::ShortInt),
    entry<Pair<long double, int>>("MPI_LONG_DOUBLE_INT", Elem::LongDoubleInt),
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
    entry<Pair<float, float>>("MPI_2REAL", Elem::FloatFloat),
    entry<Pair<double, double>>("MPI_2DOUBLE_PRECISION", Elem::DoubleDouble),
    entry<Pair<int, int>>("MPI_2INTEGER", Elem::IntInt),
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

}  // namespace

const Datatype* find_datatype(MPI_Datatype handle) {
  auto h = static_cast<unsigned>(handle);
  if ((h >> 24) != SIMMPI_KIND_DATATYPE) return nullptr;
  unsigned index = h & 0xFFFFFFu;
  if (index == 0 || index >= SIMMPI_PREDEFINED_TYPES) return nullptr;
  return &kPredefined[index];
}

const char* datatype_name(MPI_Datatype handle) {
  if (const Datatype* t = find_datatype(handle)) return t->name;
  if (handle == MPI_DATATYPE_NULL) return "MPI_DATATYPE_NULL";
  thread_local char buf[40];
  std::snprintf(buf, sizeof buf, "datatype 0x%08x", static_cast<unsigned>(handle));
  return buf;
}

void pack(const void* src, int count, const Datatype& type, void* dst) {
  std::memcpy(dst, src, type.size * static_cast<std::size_t>(count));
}

void unpack(const void* src, int count, const Datatype& type, void* dst) {
  std::memcpy(dst, src, type.size * static_cast<std::size_t>(count));
}

}  // namespace simmpi::mpi
