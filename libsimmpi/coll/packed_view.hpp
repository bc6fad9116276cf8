// SPDX-License-Identifier: Apache-2.0
// How collectives take derived datatypes. The algorithms move bytes of contiguous elements; for
// a buffer of a non-contiguous type, a PackedView stands in: a packed copy in which element j
// sits at data() + j * size, and a contiguous twin of the type (same size and reduction kind,
// extent == size). The entry point swaps both in, so its byte counts, strides and displacements
// stay as they are, loads the elements the algorithm reads and stores back those it writes.
// A contiguous type passes through untouched unless a private copy is asked for.
#pragma once

#include <cstdint>
#include <memory>

#include "libsimmpi/core/datatype.hpp"

namespace simmpi::mpi {

class PackedView {
 public:
  enum class Copy { IfNeeded, Always };
  // A view of elements [first, last) of `type` at `user`, counted in extents from `user`. A
  // null type (an argument that does not count, as sendtype with MPI_IN_PLACE), MPI_IN_PLACE
  // and empty ranges make no copy.
  PackedView(const void* user, const Datatype* type, std::int64_t first, std::int64_t last,
             Copy copy = Copy::IfNeeded);
  PackedView(const PackedView&) = delete;
  PackedView& operator=(const PackedView&) = delete;

  // Where element 0 is, in the layout of type(): the user's buffer or the packed copy.
  char* data() const { return data_; }
  const Datatype* type() const { return type_; }

  // Packs elements [j, j + n) from `src` (a buffer of the user's type, by default the viewed
  // one) into the view. For a pass-through view, copies them unless src is the viewed buffer.
  void load(std::int64_t j, std::int64_t n) { load_from(user_, j, n); }
  void load_from(const void* src, std::int64_t j, std::int64_t n);
  // Unpacks elements [j, j + n) of the view into the user's buffer.
  void store(std::int64_t j, std::int64_t n);
  // load() or store() of blocks counts[i] at displs[i], i in [0, n) except `skip`.
  void load_blocks(const int* counts, const int* displs, int n, int skip = -1);
  void store_blocks(const int* counts, const int* displs, int n, int skip = -1);

 private:
  const void* user_;
  const Datatype* user_type_;
  Datatype twin_;
  const Datatype* type_;
  std::unique_ptr<char[]> copy_;
  char* data_;
  bool packed_ = false;
};

// The elements that blocks counts[i] at displs[i] cover: [first, last), or [0, 0) if none.
struct ElementSpan {
  std::int64_t first = 0;
  std::int64_t last = 0;
};
ElementSpan span_of(const int* counts, const int* displs, int n);

}  // namespace simmpi::mpi
