// SPDX-License-Identifier: Apache-2.0
// MPI datatypes as libsimmpi sees them: a size (bytes of data), an extent (stride between
// consecutive elements) and, for reductions, the element kind. Predefined types only for now;
// derived types add a block map and the same pack/unpack entry points.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mpi.h"

namespace simmpi::mpi {

// What the elements are, for reduction operations.
enum class Elem : std::uint8_t {
  None,  // not reducible (MPI_PACKED, MPI_CHARACTER...)
  I8, U8, I16, U16, I32, U32, I64, U64,
  F32, F64, F80,
  Bool,
  CF32, CF64, CF80,  // complex
  FloatInt, DoubleInt, LongInt, IntInt, ShortInt, LongDoubleInt, FloatFloat, DoubleDouble,  // *LOC pairs
  Byte,  // MPI_BYTE: bitwise ops only
};

struct Datatype {
  const char* name;
  std::size_t size;   // bytes of data in one element
  std::ptrdiff_t extent;
  Elem elem;
  bool contiguous;  // one element occupies [0, size) and extent == size
};

// The datatype behind `handle`, or nullptr if it is not a valid datatype handle.
const Datatype* find_datatype(MPI_Datatype handle);
// Name for messages: "MPI_DOUBLE", or "datatype 0x4c0000ff" for an unknown handle.
const char* datatype_name(MPI_Datatype handle);

// Copies `count` elements laid out as `type` at `src` into a packed byte stream at `dst`, and
// back. For contiguous types both are one memcpy.
void pack(const void* src, int count, const Datatype& type, void* dst);
void unpack(const void* src, int count, const Datatype& type, void* dst);

}  // namespace simmpi::mpi
