// SPDX-License-Identifier: Apache-2.0
// The indexed constructors (MPI-3.1 4.1.2): MPI_Type_indexed, MPI_Type_create_hindexed,
// MPI_Type_create_indexed_block, MPI_Type_create_hindexed_block, their large-count (_c) forms
// (MPI-4.1 5.1.2), and the MPI-1 MPI_Type_hindexed. Displacements are in extents of the old type,
// or in bytes for the h forms. The int and _c forms are one implementation, templated on the
// type their arrays hold (int or MPI_Aint; MPI_Count).
#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// One block length per block (`blocklengths`) or, for the _block forms, one for all
// (`blocklength`); displacements in extents or, for the h forms, in bytes.
template <class Length, class Displacement>
struct IndexedArgs {
  long long count;
  bool one_length;
  const Length* blocklengths;
  long long blocklength;
  const Displacement* displs;
  bool in_bytes;
};

template <class L, class D>
Envelope indexed_envelope(int combiner, const IndexedArgs<L, D>& x, const Datatype* old) {
  std::vector<long long> counts{x.count};
  if (x.one_length)
    counts.push_back(x.blocklength);
  else
    counts.insert(counts.end(), x.blocklengths, x.blocklengths + x.count);
  std::vector<MPI_Aint> aints;
  if (x.in_bytes)
    aints.assign(x.displs, x.displs + x.count);
  else
    counts.insert(counts.end(), x.displs, x.displs + x.count);
  return counted_envelope(combiner, counts, std::move(aints), {old});
}

template <class L, class D>
int make_indexed(const char* name, int combiner, const IndexedArgs<L, D>& x, MPI_Datatype oldtype,
                 MPI_Datatype* newtype) {
  ApiCall call(name);
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.count(x.count);
  if (x.one_length)
    a.nonnegative(x.blocklength, "blocklength");
  else
    a.lengths(x.blocklengths, x.count, "array_of_blocklengths");
  a.array(x.displs, x.count, "array_of_displacements");
  a.type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  auto block = [&](std::int64_t i) {
    std::int64_t disp = x.in_bytes ? x.displs[i] : x.displs[i] * old->extent;
    return Block{disp, x.one_length ? x.blocklength : x.blocklengths[i], old};
  };
  return a.publish(hindexed_layout(x.count, *old, block), indexed_envelope(combiner, x, old),
                   newtype);
}

template <class L, class D>
IndexedArgs<L, D> per_block(long long count, const L* blocklengths, const D* displs,
                            bool in_bytes) {
  return IndexedArgs<L, D>{count, false, blocklengths, 0, displs, in_bytes};
}

template <class D>
IndexedArgs<D, D> one_length(long long count, long long blocklength, const D* displs,
                             bool in_bytes) {
  return IndexedArgs<D, D>{count, true, nullptr, blocklength, displs, in_bytes};
}

}  // namespace

extern "C" {

int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED,
                      per_block(count, array_of_blocklengths, array_of_displacements, false),
                      oldtype, newtype);
}
int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                       const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_indexed_c", MPI_COMBINER_INDEXED,
                      per_block(count, array_of_blocklengths, array_of_displacements, false),
                      oldtype, newtype);
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED,
                      per_block(count, array_of_blocklengths, array_of_displacements, true),
                      oldtype, newtype);
}
int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_create_hindexed_c", MPI_COMBINER_HINDEXED,
                      per_block(count, array_of_blocklengths, array_of_displacements, true),
                      oldtype, newtype);
}

int MPI_Type_hindexed(int count, const int array_of_blocklengths[],
                      const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_hindexed", MPI_COMBINER_HINDEXED,
                      per_block(count, array_of_blocklengths, array_of_displacements, true),
                      oldtype, newtype);
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK,
                      one_length(count, blocklength, array_of_displacements, false), oldtype,
                      newtype);
}
int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_create_indexed_block_c", MPI_COMBINER_INDEXED_BLOCK,
                      one_length(count, blocklength, array_of_displacements, false), oldtype,
                      newtype);
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK,
                      one_length(count, blocklength, array_of_displacements, true), oldtype,
                      newtype);
}
int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype* newtype) {
  return make_indexed("MPI_Type_create_hindexed_block_c", MPI_COMBINER_HINDEXED_BLOCK,
                      one_length(count, blocklength, array_of_displacements, true), oldtype,
                      newtype);
}

}  // extern "C"
