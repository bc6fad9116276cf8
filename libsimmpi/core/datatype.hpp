// SPDX-License-Identifier: Apache-2.0
// MPI datatypes as libsimmpi sees them: a size (bytes of data), bounds (lb, extent: the stride
// between consecutive elements), a flattened data map, and, for reductions, the element kind.
// Predefined types live in a static table; derived ones (libsimmpi/datatype/) are reference
// counted, so a type freed by the application stays alive while a pending request, another
// type's contents or a second handle still refers to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "libsimmpi/datatype/type_map.hpp"
#include "mpi.h"

namespace simmpi::mpi {

// What the elements are, for reduction operations.
// clang-format off
enum class Elem : std::uint8_t {
  None,  // not reducible (MPI_PACKED, MPI_CHARACTER, or a mix of kinds)
  I8, U8, I16, U16, I32, U32, I64, U64,
  F32, F64, F80,
  Bool,
  CF32, CF64, CF80,  // complex
  FloatInt, DoubleInt, LongInt, IntInt, ShortInt, LongDoubleInt, FloatFloat, DoubleDouble,  // *LOC pairs
  Byte,  // MPI_BYTE: bitwise ops only
};
// clang-format on

struct Datatype;

// A counted reference to a datatype; predefined types are not counted.
class TypeRef {
 public:
  TypeRef() = default;
  // Inline (below Datatype): every request takes and drops one, and predefined types cost a test.
  inline TypeRef(const Datatype* t);  // NOLINT: a plain pointer converts, as Request::type did
  TypeRef(const TypeRef& o) : TypeRef(o.t_) {}
  inline TypeRef& operator=(const TypeRef& o);
  inline ~TypeRef();
  const Datatype* get() const { return t_; }
  const Datatype* operator->() const { return t_; }
  const Datatype& operator*() const { return *t_; }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  static void destroy(const Datatype* t);  // the last reference to a derived type went
  const Datatype* t_ = nullptr;
};

// How a derived type was made, as MPI_Type_get_envelope/get_contents report it (MPI-3.1 4.1.13).
struct Envelope {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> aints;
  std::vector<TypeRef> types;
  // A type whose counts do not all fit an int (made by a large-count constructor, MPI-4.1) keeps
  // them here instead of in `ints`: MPI_Type_get_envelope_c reports them as large counts.
  std::vector<MPI_Count> large_counts{};
};

// What only derived types have. Held by pointer so that it stays put (name points into it) and
// so that it may change on a const Datatype (commit, set_name).
struct DerivedInfo {
  char label[MPI_MAX_OBJECT_NAME + 32] = {};  // Datatype::name: the user's name or a description
  bool named = false;                         // MPI_Type_set_name was called
  bool committed = false;
  Envelope envelope;
};

struct Datatype {
  const char* name = "";      // for messages and MPI_Type_get_name
  std::size_t size = 0;       // bytes of data in one element
  std::ptrdiff_t extent = 0;  // ub - lb
  Elem elem = Elem::None;     // the one kind all the data is made of (reductions)
  bool contiguous = true;     // one element occupies [0, size) and extent == size
  std::ptrdiff_t lb = 0;
  std::ptrdiff_t true_lb = 0;      // first data byte
  std::ptrdiff_t true_extent = 0;  // last data byte + 1 - true_lb
  std::size_t basic_size = 0;      // bytes of one reduction element of kind `elem`, packed
  std::size_t align = 1;           // alignment of the most demanding member (struct padding)
  TypeMap map;
  mutable int refs = 0;                  // TypeRefs to a derived type
  std::unique_ptr<DerivedInfo> derived;  // null for predefined types
};

TypeRef::TypeRef(const Datatype* t) : t_(t) {
  if (t_ && t_->derived) ++t_->refs;
}

TypeRef& TypeRef::operator=(const TypeRef& o) {
  if (o.t_ && o.t_->derived) ++o.t_->refs;  // first: o may be the last reference held by *this
  const Datatype* old = t_;
  t_ = o.t_;
  if (old && old->derived && --old->refs == 0) destroy(old);
  return *this;
}

TypeRef::~TypeRef() {
  if (t_ && t_->derived && --t_->refs == 0) destroy(t_);
}

inline bool is_committed(const Datatype& t) {
  return !t.derived || t.derived->committed;
}

// The predefined types, by handle index (index 0 is MPI_DATATYPE_NULL's placeholder).
extern const Datatype kPredefinedTypes[SIMMPI_PREDEFINED_TYPES];

// The predefined type `handle` names, or nullptr for any other handle (MPI_DATATYPE_NULL, a
// derived type, not a datatype). Inline: every send and receive resolves its type.
inline const Datatype* find_predefined_datatype(MPI_Datatype handle) {
  const auto u = static_cast<unsigned>(handle);
  const unsigned index = u & 0xFFFFFFu;
  if ((u >> 24) != SIMMPI_KIND_DATATYPE || index == 0 || index >= SIMMPI_PREDEFINED_TYPES)
    return nullptr;
  return &kPredefinedTypes[index];
}
// The datatype behind `handle` for world rank `rank` (derived handles are per rank), or nullptr
// if it is not a valid datatype handle of that rank.
const Datatype* find_datatype(MPI_Datatype handle, int rank);
// The same for the calling rank (only valid inside a rank).
const Datatype* find_datatype(MPI_Datatype handle);
// The handle of a predefined type (MPI_DATATYPE_NULL for a derived one).
MPI_Datatype predefined_handle(const Datatype& t);
// Name for messages: "MPI_DOUBLE", "datatype 0x4c00003e (vector)", or "datatype 0x4c0000ff" for
// an unknown handle.
const char* datatype_name(MPI_Datatype handle);

// Copies `count` elements laid out as `type` at `src` into a packed byte stream at `dst`, and
// back. For contiguous types both are one memcpy. `mem` maps the typed side's addresses.
void pack(const void* src, std::int64_t count, const Datatype& type, void* dst,
          const AddressMap& mem = AddressMap());
void unpack(const void* src, std::int64_t count, const Datatype& type, void* dst,
            const AddressMap& mem = AddressMap());
// The same limited to the first `bytes` of the packed stream (truncated or short messages):
// the last element may be partial. Return the bytes moved.
std::uint64_t pack_bytes(const void* src, std::int64_t count, const Datatype& type,
                         std::uint64_t bytes, void* dst, const AddressMap& mem = AddressMap());
std::uint64_t unpack_bytes(const void* src, std::uint64_t bytes, std::int64_t count,
                           const Datatype& type, void* dst, const AddressMap& mem = AddressMap());

}  // namespace simmpi::mpi
