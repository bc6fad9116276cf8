// SPDX-License-Identifier: Apache-2.0
// MPI_Type_create_struct (MPI-3.1 4.1.2), its large-count form (MPI-4.1) and the MPI-1
// MPI_Type_struct, which HPL still uses
// with MPI_Address and MPI_BOTTOM.
#include <vector>

#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// The int and large-count (_c) forms: block lengths as ints or MPI_Counts, displacements as
// MPI_Aints or MPI_Counts (both bytes).
template <class Length, class Displacement>
int make_struct(const char* name, long long count, const Length* blocklengths,
                const Displacement* displs, const MPI_Datatype* types, MPI_Datatype* newtype) {
  ApiCall call(name);
  TypeArgs a(call);
  a.count(count).lengths(blocklengths, count, "array_of_blocklengths");
  a.array(displs, count, "array_of_displacements").array(types, count, "array_of_types");
  a.out(newtype, "newtype");
  std::vector<const Datatype*> olds(static_cast<std::size_t>(a.ok() ? count : 0));
  for (long long i = 0; a.ok() && i < count; ++i)
    a.type_at(types[i], "array_of_types", static_cast<int>(i), &olds[static_cast<std::size_t>(i)]);
  if (!a.ok()) return a.error();
  std::vector<long long> counts{count};
  counts.insert(counts.end(), blocklengths, blocklengths + count);
  Envelope e = counted_envelope(MPI_COMBINER_STRUCT, counts, {displs, displs + count},
                                {olds.begin(), olds.end()});
  auto block = [&](std::int64_t i) {
    auto u = static_cast<std::size_t>(i);
    return Block{displs[i], blocklengths[i], olds[u]};
  };
  return a.publish(struct_layout(count, block), std::move(e), newtype);
}

}  // namespace

extern "C" {

int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return make_struct("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype);
}

int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                             const MPI_Count array_of_displacements[],
                             const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return make_struct("MPI_Type_create_struct_c", count, array_of_blocklengths,
                     array_of_displacements, array_of_types, newtype);
}

int MPI_Type_struct(int count, const int array_of_blocklengths[],
                    const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                    MPI_Datatype* newtype) {
  return make_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype);
}

}  // extern "C"
