// SPDX-License-Identifier: Apache-2.0
// Layouts of the array constructors, built from the block constructors as MPI-3.1 defines them:
// subarray (4.1.3) and darray (4.1.4). Dimensions are processed from the fastest-varying one
// (the last in C order, the first in Fortran order) outwards; each step wraps the type built
// so far, whose extent is resized to span its whole dimension, as MPICH does.
#include <vector>

#include "libsimmpi/datatype/layouts.hpp"

namespace simmpi::mpi {
namespace {

// Index of the k-th fastest-varying dimension.
int fastest(int k, int ndims, ArrayOrder order) {
  return order == ArrayOrder::C ? ndims - 1 - k : k;
}

// `t` moved to `disp_bytes`, with bounds [0, extent) (the global array).
std::unique_ptr<Datatype> place(const Datatype& t, std::int64_t disp_bytes, std::int64_t extent) {
  std::unique_ptr<Datatype> placed = hindexed_layout(1, t, [&](std::int64_t) {
    return Block{disp_bytes, 1, &t};
  });
  return resized_layout(*placed, 0, extent);
}

// The part of one dimension a process owns, and where it starts (in indices of that dimension,
// when the start is not already inside `type`).
struct DimPart {
  std::unique_ptr<Datatype> type;
  std::int64_t start = 0;
};

// Block distribution (MPI_DISTRIBUTE_NONE is a block over one process). `stride` is the byte
// distance between consecutive indices of this dimension; `inner` the type of one index.
DimPart block_part(const DarrayDim& d, int coord, std::int64_t stride, bool is_fastest,
                   const Datatype& inner) {
  std::int64_t procs = d.distrib == MPI_DISTRIBUTE_NONE ? 1 : d.psize;
  if (d.distrib == MPI_DISTRIBUTE_NONE) coord = 0;
  std::int64_t block = d.darg == MPI_DISTRIBUTE_DFLT_DARG || d.distrib == MPI_DISTRIBUTE_NONE
                           ? (d.gsize + procs - 1) / procs
                           : d.darg;
  std::int64_t mine = std::max<std::int64_t>(0, std::min(block, d.gsize - block * coord));
  std::unique_ptr<Datatype> t =
      is_fastest ? contiguous_layout(mine, inner) : hvector_layout(mine, 1, stride, inner);
  return DimPart{resized_layout(*t, 0, d.gsize * stride), mine > 0 ? block * coord : 0};
}

// Cyclic distribution: blocks of `block` indices dealt round-robin; the last may be short.
DimPart cyclic_part(const DarrayDim& d, int coord, std::int64_t stride, bool is_fastest,
                    const Datatype& inner) {
  std::int64_t block = d.darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : d.darg;
  std::int64_t first = static_cast<std::int64_t>(coord) * block;
  std::int64_t cycle = d.psize * block;
  std::int64_t mine = 0;
  if (first < d.gsize) {
    std::int64_t span = d.gsize - first;
    mine = span / cycle * block + std::min(span % cycle, block);
  }
  std::unique_ptr<Datatype> t = hvector_layout(mine / block, block, cycle * stride, inner);
  if (std::int64_t rest = mine % block) {
    const Datatype* whole = t.get();
    Block parts[2] = {{0, 1, whole}, {mine / block * cycle * stride, rest, &inner}};
    t = struct_layout(2, [&](std::int64_t i) { return parts[i]; });
  }
  DimPart part;
  if (is_fastest && mine > 0) {
    part.type = place(*t, first * stride, d.gsize * stride);
  } else {
    part.type = resized_layout(*t, 0, d.gsize * stride);
    part.start = mine > 0 ? first : 0;
  }
  return part;
}

// Process coordinates in a row-major grid, as MPI_Cart_create numbers them.
std::vector<int> grid_coords(int rank, int ndims, const DarrayDim* dims) {
  std::vector<int> coords(static_cast<std::size_t>(ndims));
  for (int i = ndims - 1; i >= 0; --i) {
    coords[static_cast<std::size_t>(i)] = rank % dims[i].psize;
    rank /= dims[i].psize;
  }
  return coords;
}

}  // namespace

std::unique_ptr<Datatype> subarray_layout(int ndims, const int* sizes, const int* subsizes,
                                          const int* starts, ArrayOrder order,
                                          const Datatype& old) {
  std::int64_t stride = old.extent;  // bytes between consecutive indices of the dimension
  std::int64_t offset = 0;
  std::unique_ptr<Datatype> t;
  for (int k = 0; k < ndims; ++k) {
    int d = fastest(k, ndims, order);
    t = k == 0 ? contiguous_layout(subsizes[d], old) : hvector_layout(subsizes[d], 1, stride, *t);
    offset += starts[d] * stride;
    stride *= sizes[d];
  }
  return place(*t, offset, stride);
}

std::unique_ptr<Datatype> darray_layout(int rank, int ndims, const DarrayDim* dims,
                                        ArrayOrder order, const Datatype& old) {
  std::vector<int> coords = grid_coords(rank, ndims, dims);
  std::int64_t stride = old.extent;
  std::int64_t start = 0, index_stride = 1;  // the block's first element, in elements of `old`
  std::unique_ptr<Datatype> t;
  for (int k = 0; k < ndims; ++k) {
    int i = fastest(k, ndims, order);
    const Datatype& inner = k == 0 ? old : *t;
    int coord = coords[static_cast<std::size_t>(i)];
    DimPart part = dims[i].distrib == MPI_DISTRIBUTE_CYCLIC
                       ? cyclic_part(dims[i], coord, stride, k == 0, inner)
                       : block_part(dims[i], coord, stride, k == 0, inner);
    t = std::move(part.type);
    start += part.start * index_stride;
    index_stride *= dims[i].gsize;
    stride *= dims[i].gsize;
  }
  return place(*t, start * old.extent, stride);
}

}  // namespace simmpi::mpi
