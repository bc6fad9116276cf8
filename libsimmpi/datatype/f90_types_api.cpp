// SPDX-License-Identifier: Apache-2.0
// The Fortran 90 parameterized types (MPI-3.1 17.2.5): MPI_Type_create_f90_integer/real/complex
// return the type of the kind selected_int_kind(r) / selected_real_kind(p, r) selects (gfortran's
// kinds, smallest first), as a predefined type: it is cached per rank and (p, r), cannot be
// freed, and says MPI_COMBINER_F90_* with its p and r in its envelope (17.2.5, 4.1.13). Its
// layout is that of the matching sized type (MPI_REAL8...). MPI_ERR_ARG when no kind has them.
#include <map>
#include <tuple>
#include <vector>

#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// A kind: the largest decimal precision and exponent range it holds, and its MPI type.
struct Kind {
  int precision, range;
  MPI_Datatype type;
};

// gfortran's kinds on x86-64 (selected_real_kind / selected_int_kind; kind 10, the x87 format,
// has no sized MPI type, so a precision of 16 to 18 digits goes to the 16-byte kind, as MPICH
// does). Complex kinds are pairs of the real ones; simmpi has no MPI_COMPLEX32.
constexpr Kind kIntegers[] = {
    {0, 2, MPI_INTEGER1}, {0, 4, MPI_INTEGER2}, {0, 9, MPI_INTEGER4}, {0, 18, MPI_INTEGER8}};
constexpr Kind kReals[] = {{6, 37, MPI_REAL4}, {15, 307, MPI_REAL8}, {33, 4931, MPI_REAL16}};
constexpr Kind kComplexes[] = {{6, 37, MPI_COMPLEX8}, {15, 307, MPI_COMPLEX16}};

// The smallest kind that holds precision p and range r (MPI_UNDEFINED: no constraint).
template <std::size_t N>
const Kind* select_kind(const Kind (&kinds)[N], int p, int r) {
  for (const Kind& k : kinds)
    if ((p == MPI_UNDEFINED || p <= k.precision) && (r == MPI_UNDEFINED || r <= k.range)) return &k;
  return nullptr;
}

// The caller's handle for (combiner, p, r), made on first use.
MPI_Datatype cached_type(TypeArgs& a, int combiner, int p, int r, const Kind& kind) {
  static std::map<std::tuple<int, int, int, int>, MPI_Datatype> made;
  auto key = std::make_tuple(a.call().rank, combiner, p, r);
  auto it = made.find(key);
  if (it != made.end()) return it->second;
  MPI_Datatype h = MPI_DATATYPE_NULL;
  // The envelope's integers (4.1.13): r for an integer, p and r for a real or complex type.
  std::vector<int> ints =
      combiner == MPI_COMBINER_F90_INTEGER ? std::vector<int>{r} : std::vector<int>{p, r};
  a.publish(dup_layout(*find_datatype(kind.type)), Envelope{combiner, std::move(ints), {}, {}}, &h);
  find_datatype(h, a.call().rank)->derived->committed = true;
  made.emplace(key, h);
  return h;
}

template <std::size_t N>
int create_f90(const char* name, int combiner, const Kind (&kinds)[N], int p, int r,
               MPI_Datatype* newtype) {
  ApiCall call(name);
  TypeArgs a(call);
  a.out(newtype, "newtype");
  if (a.ok() && combiner != MPI_COMBINER_F90_INTEGER && p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    a.fail(MPI_ERR_ARG, "p and r are both MPI_UNDEFINED; at most one may be");
  if (a.ok() && ((p != MPI_UNDEFINED && p < 0) || (r != MPI_UNDEFINED && r < 0)))
    a.fail(MPI_ERR_ARG, "p=%d, r=%d: a precision or range is negative", p, r);
  const Kind* kind = a.ok() ? select_kind(kinds, p, r) : nullptr;
  if (a.ok() && !kind)
    a.fail(MPI_ERR_ARG,
           "no Fortran kind has a decimal precision of %d and an exponent range of %d "
           "(MPI_UNDEFINED is %d); the largest is p=%d r=%d",
           p, r, MPI_UNDEFINED, kinds[N - 1].precision, kinds[N - 1].range);
  if (!a.ok()) return a.error();
  *newtype = cached_type(a, combiner, p, r, *kind);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  return create_f90("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, kIntegers,
                    MPI_UNDEFINED, r, newtype);
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  return create_f90("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, kReals, p, r, newtype);
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  return create_f90("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, kComplexes, p, r,
                    newtype);
}

}  // extern "C"
