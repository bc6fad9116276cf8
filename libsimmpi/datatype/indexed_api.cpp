// SPDX-License-Identifier: Apache-2.0
// The indexed constructors (MPI-3.1 4.1.2): MPI_Type_indexed, MPI_Type_create_hindexed,
// MPI_Type_create_indexed_block, MPI_Type_create_hindexed_block, and the MPI-1
// MPI_Type_hindexed. Displacements are in extents of the old type, or in bytes for the h forms.
#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// One block length per block (`blocklengths`) or, for the _block forms, one for all
// (`blocklength`); displacements as ints in extents or, for the h forms, MPI_Aints in bytes.
struct IndexedArgs {
  int count;
  bool one_length;
  const int* blocklengths;
  int blocklength;
  bool in_bytes;
  const int* displs;
  const MPI_Aint* byte_displs;
};

Envelope indexed_envelope(int combiner, const IndexedArgs& x, const Datatype* old) {
  Envelope e{combiner, {x.count}, {}, {old}};
  if (x.one_length)
    e.ints.push_back(x.blocklength);
  else
    e.ints.insert(e.ints.end(), x.blocklengths, x.blocklengths + x.count);
  if (x.in_bytes)
    e.aints.assign(x.byte_displs, x.byte_displs + x.count);
  else
    e.ints.insert(e.ints.end(), x.displs, x.displs + x.count);
  return e;
}

int make_indexed(const char* name, int combiner, const IndexedArgs& x, MPI_Datatype oldtype,
                 MPI_Datatype* newtype) {
  ApiCall call(name);
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.count(x.count);
  if (x.one_length)
    a.nonnegative(x.blocklength, "blocklength");
  else
    a.lengths(x.blocklengths, x.count, "array_of_blocklengths");
  if (x.in_bytes)
    a.array(x.byte_displs, x.count, "array_of_displacements");
  else
    a.array(x.displs, x.count, "array_of_displacements");
  a.type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  auto block = [&](std::int64_t i) {
    std::int64_t disp = x.in_bytes ? x.byte_displs[i] : x.displs[i] * old->extent;
    return Block{disp, x.one_length ? x.blocklength : x.blocklengths[i], old};
  };
  return a.publish(hindexed_layout(x.count, *old, block), indexed_envelope(combiner, x, old),
                   newtype);
}

}  // namespace

extern "C" {

int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  IndexedArgs x{count, false, array_of_blocklengths, 0, false, array_of_displacements, nullptr};
  return make_indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED, x, oldtype, newtype);
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  IndexedArgs x{count, false, array_of_blocklengths, 0, true, nullptr, array_of_displacements};
  return make_indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, x, oldtype, newtype);
}

int MPI_Type_hindexed(int count, const int array_of_blocklengths[],
                      const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  IndexedArgs x{count, false, array_of_blocklengths, 0, true, nullptr, array_of_displacements};
  return make_indexed("MPI_Type_hindexed", MPI_COMBINER_HINDEXED, x, oldtype, newtype);
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  IndexedArgs x{count, true, nullptr, blocklength, false, array_of_displacements, nullptr};
  return make_indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK, x, oldtype,
                      newtype);
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  IndexedArgs x{count, true, nullptr, blocklength, true, nullptr, array_of_displacements};
  return make_indexed("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, x, oldtype,
                      newtype);
}

}  // extern "C"
