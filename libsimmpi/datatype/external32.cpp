// SPDX-License-Identifier: Apache-2.0
// MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size (MPI-4.1 5.2.2, 14.5.2): the
// "external32" representation, big-endian with the sizes of the standard's table (MPI_LONG and
// MPI_UNSIGNED_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE 16 in IEEE quadruple precision, pair
// types packed without padding). Data is packed natively first (datatype.hpp's pack, in
// type-map order), then each basic element is converted; the basic elements of a derived type
// come from how it was made (its envelope): copies of its old type, or a struct's members in
// order. A value the external size cannot hold (a long over 2^31) is MPI_ERR_CONVERSION.
// MPICH differs in two places: it gives the pair types (MPI_2INT...) size 0, and accepts any
// datarep string; simmpi follows the standard.
#include <cstdint>
#include <cstring>
#include <memory>

#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

enum class Kind : std::uint8_t { Raw, Signed, Unsigned, Float, Extended };

struct Part {
  std::uint8_t native;    // bytes in the native packed stream
  std::uint8_t external;  // bytes in external32
  Kind kind;
};

struct Parts {
  Part p[2];
  int n;
};

constexpr Parts one(std::uint8_t native, std::uint8_t external, Kind k) {
  return Parts{{Part{native, external, k}, Part{0, 0, Kind::Raw}}, 1};
}
constexpr Parts two(Part a, Part b) {
  return Parts{{a, b}, 2};
}
constexpr Part kInt4{4, 4, Kind::Signed};
constexpr Part kFloat4{4, 4, Kind::Float};
constexpr Part kFloat8{8, 8, Kind::Float};
constexpr Part kExt16{16, 16, Kind::Extended};

// The basic elements of a predefined type, in native packed order.
Parts parts_of(MPI_Datatype h) {
  switch (h) {
    case MPI_WCHAR:  // UCS-2 in external32
      return one(4, 2, Kind::Unsigned);
    case MPI_SHORT:
    case MPI_INT16_T:
    case MPI_INTEGER2:
      return one(2, 2, Kind::Signed);
    case MPI_UNSIGNED_SHORT:
    case MPI_UINT16_T:
      return one(2, 2, Kind::Unsigned);
    case MPI_INT:
    case MPI_INT32_T:
    case MPI_INTEGER:
    case MPI_INTEGER4:
    case MPI_LOGICAL:
      return one(4, 4, Kind::Signed);
    case MPI_UNSIGNED:
    case MPI_UINT32_T:
      return one(4, 4, Kind::Unsigned);
    case MPI_LONG:
      return one(8, 4, Kind::Signed);
    case MPI_UNSIGNED_LONG:
      return one(8, 4, Kind::Unsigned);
    case MPI_LONG_LONG_INT:
    case MPI_INT64_T:
    case MPI_AINT:
    case MPI_COUNT:
    case MPI_OFFSET:
    case MPI_INTEGER8:
      return one(8, 8, Kind::Signed);
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_UINT64_T:
      return one(8, 8, Kind::Unsigned);
    case MPI_FLOAT:
    case MPI_REAL:
    case MPI_REAL4:
      return one(4, 4, Kind::Float);
    case MPI_DOUBLE:
    case MPI_DOUBLE_PRECISION:
    case MPI_REAL8:
      return one(8, 8, Kind::Float);
    case MPI_LONG_DOUBLE:
    case MPI_REAL16:
      return one(16, 16, Kind::Extended);
    case MPI_C_FLOAT_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_COMPLEX:
    case MPI_COMPLEX8:
    case MPI_2REAL:
      return two(kFloat4, kFloat4);
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16:
    case MPI_2DOUBLE_PRECISION:
      return two(kFloat8, kFloat8);
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX:
      return two(kExt16, kExt16);
    case MPI_FLOAT_INT:
      return two(kFloat4, kInt4);
    case MPI_DOUBLE_INT:
      return two(kFloat8, kInt4);
    case MPI_LONG_INT:
      return two(Part{8, 4, Kind::Signed}, kInt4);
    case MPI_2INT:
    case MPI_2INTEGER:
      return two(kInt4, kInt4);
    case MPI_SHORT_INT:
      return two(Part{2, 2, Kind::Signed}, kInt4);
    case MPI_LONG_DOUBLE_INT:
      return two(kExt16, kInt4);
    default:  // the one-byte types: characters, bytes, booleans, MPI_PACKED
      return one(1, 1, Kind::Raw);
  }
}

std::uint64_t load_le(const char* p, int n) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, static_cast<std::size_t>(n));  // x86-64 is little-endian
  return v;
}

void store_be(std::uint64_t v, char* p, int n) {
  for (int i = n - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<char>(v & 0xff);
}

std::uint64_t load_be(const char* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// The x87 80-bit format (64-bit significand with an explicit integer bit) and IEEE quadruple
// precision share sign and 15-bit exponent; the quadruple keeps the 63 fraction bits at its top.
void extended_to_quad(const char* in, char* out) {
  const std::uint64_t m = load_le(in, 8) & 0x7fffffffffffffffULL;
  const std::uint64_t se = load_le(in + 8, 2);
  store_be((se << 48) | (m >> 15), out, 8);
  store_be((m & 0x7fff) << 49, out + 8, 8);
}

void quad_to_extended(const char* in, char* out) {
  const std::uint64_t hi = load_be(in, 8), lo = load_be(in + 8, 8);
  const std::uint64_t se = hi >> 48;
  const std::uint64_t integer_bit = (se & 0x7fff) != 0 ? 1ULL << 63 : 0;
  const std::uint64_t m = integer_bit | ((hi & 0xffffffffffffULL) << 15) | (lo >> 49);
  std::memset(out, 0, 16);
  std::memcpy(out, &m, 8);
  std::memcpy(out + 8, &se, 2);
}

bool fits(std::uint64_t v, const Part& p) {
  if (p.native == p.external) return true;
  const int bits = 8 * p.external;
  if (p.kind == Kind::Unsigned) return (v >> bits) == 0;
  const auto s = static_cast<std::int64_t>(v);
  return s >= -(std::int64_t{1} << (bits - 1)) && s < (std::int64_t{1} << (bits - 1));
}

// Walks the basic elements of `count` elements of a type, converting the native packed stream
// to external32 or back; with no buffers it only counts the external bytes.
class Converter {
 public:
  Converter(bool to_external, const char* in, char* out)
      : to_external_(to_external), in_(in), out_(out) {}
  std::uint64_t external_bytes() const { return external_bytes_; }
  const char* unconvertible() const { return bad_; }

  void walk(const Datatype& t, std::int64_t count) {
    if (count <= 0 || t.size == 0 || bad_) return;
    if (!t.derived) return basic(t, count);
    const Envelope& e = t.derived->envelope;
    if (e.combiner == MPI_COMBINER_STRUCT || e.combiner == MPI_COMBINER_STRUCT_INTEGER) {
      for (std::int64_t k = 0; k < count && !bad_; ++k)
        for (std::size_t i = 0; i < e.types.size(); ++i) walk(*e.types[i], e.ints[i + 1]);
      return;
    }
    // Every other constructor lays out copies of its one old type.
    const Datatype& old = *e.types[0];
    if (old.size > 0) walk(old, count * static_cast<std::int64_t>(t.size / old.size));
  }

 private:
  void basic(const Datatype& t, std::int64_t count) {
    const Parts ps = parts_of(predefined_handle(t));
    std::uint64_t per = 0;
    for (int i = 0; i < ps.n; ++i) per += ps.p[i].external;
    external_bytes_ += per * static_cast<std::uint64_t>(count);
    if (!in_) return;
    for (std::int64_t k = 0; k < count; ++k)
      for (int i = 0; i < ps.n; ++i)
        if (!convert(ps.p[i])) {
          bad_ = t.name;
          return;
        }
  }

  bool convert(const Part& p) {
    const int from = to_external_ ? p.native : p.external;
    const int to = to_external_ ? p.external : p.native;
    if (p.kind == Kind::Extended) {
      to_external_ ? extended_to_quad(in_, out_) : quad_to_extended(in_, out_);
    } else if (to_external_) {
      const std::uint64_t v = load_le(in_, from);
      if (!fits(v, p)) return false;
      store_be(v, out_, to);
    } else {
      std::uint64_t v = load_be(in_, from);
      if (p.kind == Kind::Signed && from < to && from < 8 && (v >> (8 * from - 1)) & 1)
        v |= ~std::uint64_t{0} << (8 * from);  // sign extension
      std::memcpy(out_, &v, static_cast<std::size_t>(to));
    }
    in_ += from;
    out_ += to;
    return true;
  }

  bool to_external_;
  const char* in_;
  char* out_;
  std::uint64_t external_bytes_ = 0;
  const char* bad_ = nullptr;
};

// Checks the arguments all three calls share; the committed type, or nullptr with *err set.
const Datatype* external_args(ApiCall& call, const char* datarep, const char* count_name, int count,
                              MPI_Datatype datatype, int* err) {
  TypeArgs a(call, MPI_COMM_WORLD);
  const Datatype* t = nullptr;
  if (!datarep || std::strcmp(datarep, "external32") != 0)
    a.fail(MPI_ERR_ARG, "datarep=\"%s\": the only representation of these calls is \"external32\"",
           datarep ? datarep : "(null)");
  a.count(count, count_name).type(datatype, "datatype", &t);
  if (a.ok() && !is_committed(*t))
    a.fail(MPI_ERR_TYPE, "%s is not committed; call MPI_Type_commit first", t->name);
  *err = a.error();
  return a.ok() ? t : nullptr;
}

std::uint64_t external_size(const Datatype& t, int count) {
  Converter c(true, nullptr, nullptr);
  c.walk(t, count);
  return c.external_bytes();
}

}  // namespace

extern "C" {

int MPI_Pack_external_size(const char* datarep, int incount, MPI_Datatype datatype,
                           MPI_Aint* size) {
  ApiCall call("MPI_Pack_external_size");
  int err;
  const Datatype* t = external_args(call, datarep, "incount", incount, datatype, &err);
  if (!t) return err;
  if (!size) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "size is NULL");
  *size = static_cast<MPI_Aint>(external_size(*t, incount));
  return MPI_SUCCESS;
}

int MPI_Pack_external(const char* datarep, const void* inbuf, int incount, MPI_Datatype datatype,
                      void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
  ApiCall call("MPI_Pack_external");
  int err;
  const Datatype* t = external_args(call, datarep, "incount", incount, datatype, &err);
  if (!t) return err;
  if (!position || *position < 0 || outsize < 0)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "position=%p (%ld), outsize=%ld",
                     static_cast<void*>(position), position ? *position : 0L, outsize);
  const std::uint64_t bytes = external_size(*t, incount);
  if (static_cast<std::uint64_t>(*position) + bytes > static_cast<std::uint64_t>(outsize))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "outsize=%ld cannot hold %llu more bytes at position=%ld", outsize,
                     static_cast<unsigned long long>(bytes), *position);
  const std::size_t native = t->size * static_cast<std::size_t>(incount);
  std::unique_ptr<char[]> packed(new char[native ? native : 1]);
  pack(inbuf, incount, *t, packed.get());
  Converter c(true, packed.get(), static_cast<char*>(outbuf) + *position);
  c.walk(*t, incount);
  if (c.unconvertible())
    return call.fail(MPI_COMM_WORLD, MPI_ERR_CONVERSION,
                     "a value of %s does not fit its external32 size (%d x %s)", c.unconvertible(),
                     incount, t->name);
  *position += static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize,
                        MPI_Aint* position, void* outbuf, int outcount, MPI_Datatype datatype) {
  ApiCall call("MPI_Unpack_external");
  int err;
  const Datatype* t = external_args(call, datarep, "outcount", outcount, datatype, &err);
  if (!t) return err;
  if (!position || *position < 0 || insize < 0)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "position=%p (%ld), insize=%ld",
                     static_cast<void*>(position), position ? *position : 0L, insize);
  const std::uint64_t bytes = external_size(*t, outcount);
  if (static_cast<std::uint64_t>(*position) + bytes > static_cast<std::uint64_t>(insize))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_TRUNCATE,
                     "insize=%ld holds fewer than the %llu bytes of %d x %s after position=%ld",
                     insize, static_cast<unsigned long long>(bytes), outcount, t->name, *position);
  const std::size_t native = t->size * static_cast<std::size_t>(outcount);
  std::unique_ptr<char[]> packed(new char[native ? native : 1]);
  Converter c(false, static_cast<const char*>(inbuf) + *position, packed.get());
  c.walk(*t, outcount);
  unpack(packed.get(), outcount, *t, outbuf);
  *position += static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

}  // extern "C"
