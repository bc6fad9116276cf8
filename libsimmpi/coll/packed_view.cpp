// SPDX-License-Identifier: Apache-2.0
// Packed stand-ins for buffers of non-contiguous datatypes in collectives.
#include "libsimmpi/coll/packed_view.hpp"

#include <algorithm>
#include <cstring>

namespace simmpi::mpi {
namespace {

char* at(const void* base, std::int64_t j, std::int64_t stride) {
  return static_cast<char*>(const_cast<void*>(base)) + j * stride;
}

}  // namespace

PackedView::PackedView(const void* user, const Datatype* type, std::int64_t first,
                       std::int64_t last, Copy copy)
    : user_(user),
      user_type_(type),
      type_(type),
      data_(static_cast<char*>(const_cast<void*>(user))) {
  if (!type || user == MPI_IN_PLACE || last <= first) return;
  if (copy == Copy::IfNeeded && type->contiguous) return;
  packed_ = true;
  if (!type->contiguous) {
    twin_.name = type->name;
    twin_.size = type->size;
    twin_.extent = twin_.true_extent = static_cast<std::ptrdiff_t>(type->size);
    twin_.elem = type->elem;
    twin_.basic_size = type->basic_size;
    type_ = &twin_;
  }
  first = std::min<std::int64_t>(first, 0);  // data_ stays inside the copy
  auto size = static_cast<std::int64_t>(type->size);
  copy_.reset(new char[static_cast<std::size_t>((last - first) * size)]);
  data_ = copy_.get() - first * size;
}

void PackedView::load_from(const void* src, std::int64_t j, std::int64_t n) {
  if (!user_type_ || n <= 0) return;
  auto size = static_cast<std::int64_t>(user_type_->size);
  if (!packed_) {
    if (src != user_)
      std::memmove(at(user_, j, size), at(src, j, size), static_cast<std::size_t>(n * size));
    return;
  }
  pack(at(src, j, user_type_->extent), static_cast<int>(n), *user_type_, data_ + j * size);
}

void PackedView::store(std::int64_t j, std::int64_t n) {
  if (!packed_ || n <= 0) return;
  auto size = static_cast<std::int64_t>(user_type_->size);
  unpack(data_ + j * size, static_cast<int>(n), *user_type_, at(user_, j, user_type_->extent));
}

void PackedView::load_blocks(const int* counts, const int* displs, int n, int skip) {
  for (int i = 0; i < n; ++i)
    if (i != skip) load(displs[i], counts[i]);
}

void PackedView::store_blocks(const int* counts, const int* displs, int n, int skip) {
  for (int i = 0; i < n; ++i)
    if (i != skip) store(displs[i], counts[i]);
}

ElementSpan span_of(const int* counts, const int* displs, int n) {
  ElementSpan s;
  bool any = false;
  for (int i = 0; i < n; ++i) {
    if (counts[i] <= 0) continue;
    std::int64_t first = displs[i], last = first + counts[i];
    s.first = any ? std::min(s.first, first) : first;
    s.last = any ? std::max(s.last, last) : last;
    any = true;
  }
  return s;
}

}  // namespace simmpi::mpi
