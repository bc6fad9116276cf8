// SPDX-License-Identifier: Apache-2.0
// MPI_Type_create_subarray (MPI-3.1 4.1.3) and MPI_Type_create_darray (4.1.4): argument checks
// (with MPICH's error classes) and envelopes; the layouts are in array_layouts.cpp.
#include <vector>

#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

void append(std::vector<int>& v, const int* a, int n) {
  v.insert(v.end(), a, a + n);
}

void check_order(TypeArgs& a, int order) {
  if (a.ok() && order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    a.fail(MPI_ERR_ARG, "order=%d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
}

void check_ndims(TypeArgs& a, int ndims) {
  if (a.ok() && ndims <= 0) a.fail(MPI_ERR_DIMS, "ndims=%d is not positive", ndims);
}

void check_subarray_dim(TypeArgs& a, int i, int size, int subsize, int start) {
  if (size <= 0) a.fail(MPI_ERR_ARG, "array_of_sizes[%d]=%d is not positive", i, size);
  if (subsize <= 0 || subsize > size)
    a.fail(MPI_ERR_ARG, "array_of_subsizes[%d]=%d not in [1,%d]", i, subsize, size);
  if (start < 0 || start > size - subsize)
    a.fail(MPI_ERR_ARG, "array_of_starts[%d]=%d not in [0,%d] (size %d, subsize %d)", i, start,
           size - subsize, size, subsize);
}

void check_darray_dim(TypeArgs& a, int i, const DarrayDim& d) {
  if (d.gsize <= 0) a.fail(MPI_ERR_ARG, "array_of_gsizes[%d]=%d is not positive", i, d.gsize);
  if (d.psize <= 0) a.fail(MPI_ERR_ARG, "array_of_psizes[%d]=%d is not positive", i, d.psize);
  if (d.distrib != MPI_DISTRIBUTE_BLOCK && d.distrib != MPI_DISTRIBUTE_CYCLIC &&
      d.distrib != MPI_DISTRIBUTE_NONE)
    a.fail(MPI_ERR_ARG, "array_of_distribs[%d]=%d is not MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE", i,
           d.distrib);
  if (d.darg != MPI_DISTRIBUTE_DFLT_DARG && d.darg <= 0)
    a.fail(MPI_ERR_ARG, "array_of_dargs[%d]=%d is neither positive nor MPI_DISTRIBUTE_DFLT_DARG", i,
           d.darg);
  if (d.distrib == MPI_DISTRIBUTE_NONE && d.psize != 1)
    a.fail(MPI_ERR_ARG, "array_of_psizes[%d]=%d must be 1 for MPI_DISTRIBUTE_NONE", i, d.psize);
  if (d.distrib == MPI_DISTRIBUTE_BLOCK && d.darg != MPI_DISTRIBUTE_DFLT_DARG &&
      static_cast<long long>(d.darg) * d.psize < d.gsize)
    a.fail(MPI_ERR_ARG,
           "array_of_dargs[%d]=%d: %d blocks of %d cannot hold the %d elements of "
           "the dimension",
           i, d.darg, d.psize, d.darg, d.gsize);
}

// The dimensions, or an empty vector after a failed check.
std::vector<DarrayDim> darray_dims(TypeArgs& a, int size, int rank, int ndims, const int* gsizes,
                                   const int* distribs, const int* dargs, const int* psizes) {
  if (a.ok() && size <= 0) a.fail(MPI_ERR_ARG, "size=%d is not positive", size);
  if (a.ok() && (rank < 0 || rank >= size))
    a.fail(MPI_ERR_ARG, "rank=%d not in [0,%d)", rank, size);
  check_ndims(a, ndims);
  a.array(gsizes, ndims, "array_of_gsizes").array(distribs, ndims, "array_of_distribs");
  a.array(dargs, ndims, "array_of_dargs").array(psizes, ndims, "array_of_psizes");
  std::vector<DarrayDim> dims;
  long long procs = 1;
  for (int i = 0; a.ok() && i < ndims; ++i) {
    dims.push_back(DarrayDim{gsizes[i], distribs[i], dargs[i], psizes[i]});
    check_darray_dim(a, i, dims.back());
    procs *= psizes[i];
  }
  if (a.ok() && procs != size)
    a.fail(MPI_ERR_ARG,
           "the process grid (product of array_of_psizes = %lld) does not have "
           "size=%d processes",
           procs, size);
  if (!a.ok()) dims.clear();
  return dims;
}

ArrayOrder to_order(int order) {
  return order == MPI_ORDER_C ? ArrayOrder::C : ArrayOrder::Fortran;
}

}  // namespace

extern "C" {

int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                             const int array_of_starts[], int order, MPI_Datatype oldtype,
                             MPI_Datatype* newtype) {
  ApiCall call("MPI_Type_create_subarray");
  const Datatype* old = nullptr;
  TypeArgs a(call);
  check_ndims(a, ndims);
  a.array(array_of_sizes, ndims, "array_of_sizes")
      .array(array_of_subsizes, ndims, "array_of_subsizes");
  a.array(array_of_starts, ndims, "array_of_starts");
  for (int i = 0; a.ok() && i < ndims; ++i)
    check_subarray_dim(a, i, array_of_sizes[i], array_of_subsizes[i], array_of_starts[i]);
  check_order(a, order);
  a.type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  Envelope e{MPI_COMBINER_SUBARRAY, {ndims}, {}, {old}};
  append(e.ints, array_of_sizes, ndims);
  append(e.ints, array_of_subsizes, ndims);
  append(e.ints, array_of_starts, ndims);
  e.ints.push_back(order);
  return a.publish(subarray_layout(ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                                   to_order(order), *old),
                   std::move(e), newtype);
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                           const int array_of_distribs[], const int array_of_dargs[],
                           const int array_of_psizes[], int order, MPI_Datatype oldtype,
                           MPI_Datatype* newtype) {
  ApiCall call("MPI_Type_create_darray");
  const Datatype* old = nullptr;
  TypeArgs a(call);
  std::vector<DarrayDim> dims = darray_dims(a, size, rank, ndims, array_of_gsizes,
                                            array_of_distribs, array_of_dargs, array_of_psizes);
  check_order(a, order);
  a.type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  Envelope e{MPI_COMBINER_DARRAY, {size, rank, ndims}, {}, {old}};
  append(e.ints, array_of_gsizes, ndims);
  append(e.ints, array_of_distribs, ndims);
  append(e.ints, array_of_dargs, ndims);
  append(e.ints, array_of_psizes, ndims);
  e.ints.push_back(order);
  return a.publish(darray_layout(rank, ndims, dims.data(), to_order(order), *old), std::move(e),
                   newtype);
}

}  // extern "C"
