// SPDX-License-Identifier: Apache-2.0
// MPI_Type_create_struct (MPI-3.1 4.1.2) and the MPI-1 MPI_Type_struct, which HPL still uses
// with MPI_Address and MPI_BOTTOM.
#include <vector>

#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

int make_struct(const char* name, int count, const int* blocklengths, const MPI_Aint* displs,
                const MPI_Datatype* types, MPI_Datatype* newtype) {
  ApiCall call(name);
  TypeArgs a(call);
  a.count(count).lengths(blocklengths, count, "array_of_blocklengths");
  a.array(displs, count, "array_of_displacements").array(types, count, "array_of_types");
  a.out(newtype, "newtype");
  std::vector<const Datatype*> olds(static_cast<std::size_t>(a.ok() ? count : 0));
  for (int i = 0; a.ok() && i < count; ++i)
    a.type_at(types[i], "array_of_types", i, &olds[static_cast<std::size_t>(i)]);
  if (!a.ok()) return a.error();
  Envelope e{MPI_COMBINER_STRUCT, {count}, {displs, displs + count}, {}};
  e.ints.insert(e.ints.end(), blocklengths, blocklengths + count);
  e.types.assign(olds.begin(), olds.end());
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

int MPI_Type_struct(int count, const int array_of_blocklengths[],
                    const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                    MPI_Datatype* newtype) {
  return make_struct("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype);
}

}  // extern "C"
