// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) forms of the datatype constructors and of packing (MPI-4.1 5.1, 5.2):
// each hands its counts to the int form when they fit and fails with MPI_ERR_COUNT otherwise
// (core/count_narrowing.hpp). Displacements are MPI_Aint either way. The queries' _c forms share
// their int forms' 64-bit implementation (query_api.cpp, envelope_api.cpp).
#include "libsimmpi/core/count_narrowing.hpp"

using namespace simmpi::mpi;

// A constructor's MPI_Count displacements are its int form's MPI_Aint ones.
static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint));

extern "C" {

int MPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf,
               MPI_Count outsize, MPI_Count* position, MPI_Comm comm) {
  CountNarrowing n("MPI_Pack_c");
  const int incount_ = n(incount, "incount");
  const int outsize_ = CountNarrowing::capacity(outsize);
  int position_ = position ? n(*position, "position") : 0;
  if (!n.fits()) return n.fail(comm);
  const int err =
      MPI_Pack(inbuf, incount_, datatype, outbuf, outsize_, position ? &position_ : nullptr, comm);
  if (err == MPI_SUCCESS && position) *position = position_;
  return err;
}

int MPI_Pack_external_c(const char* datarep, const void* inbuf, MPI_Count incount,
                        MPI_Datatype datatype, void* outbuf, MPI_Count outsize,
                        MPI_Count* position) {
  CountNarrowing n("MPI_Pack_external_c");
  const int incount_ = n(incount, "incount");
  MPI_Aint position_ = position ? n(*position, "position") : 0;
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  const int err = MPI_Pack_external(datarep, inbuf, incount_, datatype, outbuf, outsize,
                                    position ? &position_ : nullptr);
  if (err == MPI_SUCCESS && position) *position = position_;
  return err;
}

int MPI_Pack_external_size_c(const char* datarep, MPI_Count incount, MPI_Datatype datatype,
                             MPI_Count* size) {
  CountNarrowing n("MPI_Pack_external_size_c");
  const int incount_ = n(incount, "incount");
  MPI_Aint size_ = 0;
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  const int err = MPI_Pack_external_size(datarep, incount_, datatype, size ? &size_ : nullptr);
  if (err == MPI_SUCCESS && size) *size = size_;
  return err;
}

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size) {
  CountNarrowing n("MPI_Pack_size_c");
  const int incount_ = n(incount, "incount");
  int size_ = 0;
  if (!n.fits()) return n.fail(comm);
  const int err = MPI_Pack_size(incount_, datatype, comm, size ? &size_ : nullptr);
  if (err == MPI_SUCCESS && size) *size = size_;
  return err;
}

int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_contiguous_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_contiguous(count_, oldtype, newtype);
}

int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                             const int array_of_distribs[], const int array_of_dargs[],
                             const int array_of_psizes[], int order, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_darray_c");
  const int* array_of_gsizes_ = n.array(array_of_gsizes, ndims, "array_of_gsizes");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_darray(size, rank, ndims, array_of_gsizes_, array_of_distribs,
                                array_of_dargs, array_of_psizes, order, oldtype, newtype);
}

int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_hindexed_block_c");
  const int count_ = n(count, "count");
  const int blocklength_ = n(blocklength, "blocklength");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_hindexed_block(count_, blocklength_,
                                        reinterpret_cast<const MPI_Aint*>(array_of_displacements),
                                        oldtype, newtype);
}

int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_hindexed_c");
  const int count_ = n(count, "count");
  const int* array_of_blocklengths_ =
      n.array(array_of_blocklengths, count_, "array_of_blocklengths");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_hindexed(count_, array_of_blocklengths_,
                                  reinterpret_cast<const MPI_Aint*>(array_of_displacements),
                                  oldtype, newtype);
}

int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_hvector_c");
  const int count_ = n(count, "count");
  const int blocklength_ = n(blocklength, "blocklength");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_hvector(count_, blocklength_, stride, oldtype, newtype);
}

int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                    const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                    MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_indexed_block_c");
  const int count_ = n(count, "count");
  const int blocklength_ = n(blocklength, "blocklength");
  const int* array_of_displacements_ =
      n.array(array_of_displacements, count_, "array_of_displacements");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_indexed_block(count_, blocklength_, array_of_displacements_, oldtype,
                                       newtype);
}

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                              MPI_Datatype* newtype) {
  return MPI_Type_create_resized(oldtype, lb, extent, newtype);
}

int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                             const MPI_Count array_of_displacements[],
                             const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_struct_c");
  const int count_ = n(count, "count");
  const int* array_of_blocklengths_ =
      n.array(array_of_blocklengths, count_, "array_of_blocklengths");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_struct(count_, array_of_blocklengths_,
                                reinterpret_cast<const MPI_Aint*>(array_of_displacements),
                                array_of_types, newtype);
}

int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                               const MPI_Count array_of_subsizes[],
                               const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                               MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_subarray_c");
  const int* array_of_sizes_ = n.array(array_of_sizes, ndims, "array_of_sizes");
  const int* array_of_subsizes_ = n.array(array_of_subsizes, ndims, "array_of_subsizes");
  const int* array_of_starts_ = n.array(array_of_starts, ndims, "array_of_starts");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_create_subarray(ndims, array_of_sizes_, array_of_subsizes_, array_of_starts_,
                                  order, oldtype, newtype);
}

int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                       const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_indexed_c");
  const int count_ = n(count, "count");
  const int* array_of_blocklengths_ =
      n.array(array_of_blocklengths, count_, "array_of_blocklengths");
  const int* array_of_displacements_ =
      n.array(array_of_displacements, count_, "array_of_displacements");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_indexed(count_, array_of_blocklengths_, array_of_displacements_, oldtype,
                          newtype);
}

int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_vector_c");
  const int count_ = n(count, "count");
  const int blocklength_ = n(blocklength, "blocklength");
  const int stride_ = n(stride, "stride");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return MPI_Type_vector(count_, blocklength_, stride_, oldtype, newtype);
}

int MPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf,
                 MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  CountNarrowing n("MPI_Unpack_c");
  const int insize_ = CountNarrowing::capacity(insize);
  int position_ = position ? n(*position, "position") : 0;
  const int outcount_ = n(outcount, "outcount");
  if (!n.fits()) return n.fail(comm);
  const int err = MPI_Unpack(inbuf, insize_, position ? &position_ : nullptr, outbuf, outcount_,
                             datatype, comm);
  if (err == MPI_SUCCESS && position) *position = position_;
  return err;
}

int MPI_Unpack_external_c(const char datarep[], const void* inbuf, MPI_Count insize,
                          MPI_Count* position, void* outbuf, MPI_Count outcount,
                          MPI_Datatype datatype) {
  CountNarrowing n("MPI_Unpack_external_c");
  MPI_Aint position_ = position ? n(*position, "position") : 0;
  const int outcount_ = n(outcount, "outcount");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  const int err = MPI_Unpack_external(datarep, inbuf, insize, position ? &position_ : nullptr,
                                      outbuf, outcount_, datatype);
  if (err == MPI_SUCCESS && position) *position = position_;
  return err;
}

// Types keep what they were made of in ints and addresses, also those the _c constructors made
// (their counts fit an int, or they failed), so no type has large counts (MPI-4.1 5.1.13).
int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers,
                            MPI_Count* num_addresses, MPI_Count* num_large_counts,
                            MPI_Count* num_datatypes, int* combiner) {
  int ni = 0, na = 0, nd = 0;
  const int err =
      MPI_Type_get_envelope(datatype, num_integers ? &ni : nullptr, num_addresses ? &na : nullptr,
                            num_datatypes ? &nd : nullptr, combiner);
  if (err != MPI_SUCCESS) return err;
  *num_integers = ni;
  *num_addresses = na;
  if (num_large_counts) *num_large_counts = 0;
  *num_datatypes = nd;
  return MPI_SUCCESS;
}

int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                            MPI_Count max_large_counts, MPI_Count max_datatypes,
                            int array_of_integers[], MPI_Aint array_of_addresses[],
                            MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]) {
  (void)max_large_counts;  // no type has large counts (see MPI_Type_get_envelope_c)
  (void)array_of_large_counts;
  return MPI_Type_get_contents(datatype, CountNarrowing::capacity(max_integers),
                               CountNarrowing::capacity(max_addresses),
                               CountNarrowing::capacity(max_datatypes), array_of_integers,
                               array_of_addresses, array_of_datatypes);
}

}  // extern "C"
