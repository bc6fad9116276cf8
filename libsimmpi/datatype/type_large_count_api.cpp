// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) forms of packing, MPI_Type_create_subarray/darray and resized (MPI-4.1
// 5.1, 5.2) whose implementation holds ints: each hands its counts to the int form when they fit
// and fails with MPI_ERR_COUNT otherwise (core/count_narrowing.hpp). The other constructors and
// the queries share their int forms' 64-bit implementation (vector_api.cpp, indexed_api.cpp,
// struct_api.cpp, query_api.cpp, envelope_api.cpp).
#include "libsimmpi/core/count_narrowing.hpp"

using namespace simmpi::mpi;

extern "C" {

int MPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf,
               MPI_Count outsize, MPI_Count* position, MPI_Comm comm) {
  CountNarrowing n("MPI_Pack_c");
  const int incount_ = n(incount, "incount");
  const int outsize_ = CountNarrowing::capacity(outsize);
  int position_ = position ? n(*position, "position") : 0;
  if (!n.fits()) return n.fail(comm);
  const int err =
      PMPI_Pack(inbuf, incount_, datatype, outbuf, outsize_, position ? &position_ : nullptr, comm);
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
  const int err = PMPI_Pack_external(datarep, inbuf, incount_, datatype, outbuf, outsize,
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
  const int err = PMPI_Pack_external_size(datarep, incount_, datatype, size ? &size_ : nullptr);
  if (err == MPI_SUCCESS && size) *size = size_;
  return err;
}

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size) {
  CountNarrowing n("MPI_Pack_size_c");
  const int incount_ = n(incount, "incount");
  int size_ = 0;
  if (!n.fits()) return n.fail(comm);
  const int err = PMPI_Pack_size(incount_, datatype, comm, size ? &size_ : nullptr);
  if (err == MPI_SUCCESS && size) *size = size_;
  return err;
}

int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                             const int array_of_distribs[], const int array_of_dargs[],
                             const int array_of_psizes[], int order, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  CountNarrowing n("MPI_Type_create_darray_c");
  const int* array_of_gsizes_ = n.array(array_of_gsizes, ndims, "array_of_gsizes");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return PMPI_Type_create_darray(size, rank, ndims, array_of_gsizes_, array_of_distribs,
                                 array_of_dargs, array_of_psizes, order, oldtype, newtype);
}

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                              MPI_Datatype* newtype) {
  return PMPI_Type_create_resized(oldtype, lb, extent, newtype);
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
  return PMPI_Type_create_subarray(ndims, array_of_sizes_, array_of_subsizes_, array_of_starts_,
                                   order, oldtype, newtype);
}

int MPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf,
                 MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  CountNarrowing n("MPI_Unpack_c");
  const int insize_ = CountNarrowing::capacity(insize);
  int position_ = position ? n(*position, "position") : 0;
  const int outcount_ = n(outcount, "outcount");
  if (!n.fits()) return n.fail(comm);
  const int err = PMPI_Unpack(inbuf, insize_, position ? &position_ : nullptr, outbuf, outcount_,
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
  const int err = PMPI_Unpack_external(datarep, inbuf, insize, position ? &position_ : nullptr,
                                       outbuf, outcount_, datatype);
  if (err == MPI_SUCCESS && position) *position = position_;
  return err;
}

}  // extern "C"
