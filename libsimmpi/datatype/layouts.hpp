// SPDX-License-Identifier: Apache-2.0
// The layouts of derived datatypes (MPI-3.1 sections 4.1.2-4.1.7): each function returns a new
// type with its data map, bounds, size, alignment and reduction kind; the API layer adds the
// envelope and a handle. Bounds follow MPICH where the standard leaves room:
//  - a type with no data and no explicit bounds (count 0, all blocks empty, or old type of size
//    0) has lb = ub = 0;
//  - lb and ub are the lowest and highest bounds of the blocks' copies; only struct pads the
//    extent to a multiple of its members' largest alignment (the "epsilon" of MPI-3.1 4.1.6),
//    which makes struct { int; double; char } 24 bytes, as sizeof says.
// Displacements and strides are in bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "libsimmpi/core/datatype.hpp"

namespace simmpi::mpi {

// `copies` elements of `type` at disp_bytes, disp_bytes + extent, ...
struct Block {
  std::int64_t disp_bytes = 0;
  std::int64_t copies = 0;
  const Datatype* type = nullptr;
};

std::unique_ptr<Datatype> contiguous_layout(std::int64_t count, const Datatype& old);
std::unique_ptr<Datatype> hvector_layout(std::int64_t count, std::int64_t blocklength,
                                         std::int64_t stride_bytes, const Datatype& old);
// Block i of `count` is block(i), of type `old` (indexed and its variants).
std::unique_ptr<Datatype> hindexed_layout(std::int64_t count, const Datatype& old,
                                          const std::function<Block(std::int64_t)>& block);
// Blocks of different types, padded to alignment.
std::unique_ptr<Datatype> struct_layout(std::int64_t count,
                                        const std::function<Block(std::int64_t)>& block);
std::unique_ptr<Datatype> resized_layout(const Datatype& old, std::int64_t lb, std::int64_t extent);
std::unique_ptr<Datatype> dup_layout(const Datatype& old);

enum class ArrayOrder { C, Fortran };

// MPI_Type_create_subarray (MPI-3.1 4.1.3): arguments already validated.
std::unique_ptr<Datatype> subarray_layout(int ndims, const int* sizes, const int* subsizes,
                                          const int* starts, ArrayOrder order, const Datatype& old);

// One dimension of MPI_Type_create_darray (MPI-3.1 4.1.4).
struct DarrayDim {
  int gsize;
  int distrib;  // MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE
  int darg;     // block size, or MPI_DISTRIBUTE_DFLT_DARG
  int psize;
};
// The part of the global array that process `rank` of a row-major process grid owns; arguments
// already validated (see darray_problem).
std::unique_ptr<Datatype> darray_layout(int rank, int ndims, const DarrayDim* dims,
                                        ArrayOrder order, const Datatype& old);

}  // namespace simmpi::mpi
