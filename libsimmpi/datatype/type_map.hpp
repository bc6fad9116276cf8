// SPDX-License-Identifier: Apache-2.0
// The flattened data map of a datatype: where the data bytes of one element lie, in the order
// they are packed (the type map of MPI-3.1 section 4.1, without the bounds, which Datatype
// keeps). Pieces are merged as they are appended: adjacent blocks become one block, and equal
// blocks at a constant stride become one strided run, so a vector of a million doubles is one
// run. Copies of a map that is not one run (a struct, a vector of vectors) become one run whose
// blocks are copies of that map, shared rather than repeated: contiguous(10^6, struct) is one
// run, not two million. A type whose map is one block at displacement 0 with extent == size is
// contiguous: any count of it moves with one memcpy.
//
// Displacements are bytes from the buffer address. Addresses are integers, not pointers, so
// that MPI_BOTTOM (address 0) plus absolute displacements is well defined; an AddressMap turns
// them into host pointers (another rank's globals live in a privatizer copy).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace simmpi::mpi {

class TypeMap;

// `count` blocks of `len` bytes at disp, disp + stride, ... A block is either plain data holding
// len / unit basic elements of `unit` bytes (unit counts elements for MPI_Get_elements, MPI-3.1
// 4.1.11), or, when `body` is set, a copy of that map (len is then its size).
struct Run {
  std::int64_t disp = 0;
  std::int64_t len = 0;
  std::int64_t count = 1;
  std::int64_t stride = 0;
  std::int64_t unit = 1;
  std::shared_ptr<const TypeMap> body = nullptr;
};

// Turns an address of a rank's memory into the host pointer where those bytes are now.
class AddressMap {
 public:
  virtual ~AddressMap() = default;
  virtual char* at(std::intptr_t addr) const { return reinterpret_cast<char*>(addr); }
};

class TypeMap {
 public:
  const std::vector<Run>& runs() const { return runs_ ? *runs_ : no_runs(); }
  bool empty() const { return runs().empty(); }
  std::uint64_t size() const { return size_; }         // data bytes of one element
  std::int64_t elements() const { return elements_; }  // basic elements of one element
  // Lowest and one-past-highest data byte (both 0 for an empty map).
  std::int64_t data_lb() const;
  std::int64_t data_ub() const;
  // One block of plain data, so `count` elements at stride size() are one block too.
  bool is_single_block() const {
    return runs().size() == 1 && runs().front().count == 1 && !runs().front().body;
  }

  // Appends one run after the others, merging it into the last one when possible.
  void append(const Run& r);
  // Appends `copies` copies of `m`, the k-th shifted by disp + k * extent.
  void append(const TypeMap& m, std::int64_t disp, std::int64_t copies, std::int64_t extent);

  // Calls f(addr, len) for each data block of `count` elements at `base` (element i at
  // base + i * extent), in packing order, stopping after `limit` bytes (the last block is cut).
  template <class F>
  void for_each_block(std::intptr_t base, std::int64_t count, std::int64_t extent,
                      std::uint64_t limit, F&& f) const {
    if (limit > 0 && count > 0) walk(base, count, extent, limit, f);
  }

  // Packs the first `limit` bytes of `count` elements at `base` into `out`; returns the bytes
  // written (min(limit, count * size())).
  std::uint64_t pack(std::intptr_t base, std::int64_t count, std::int64_t extent,
                     std::uint64_t limit, char* out, const AddressMap& mem) const;
  // Unpacks `bytes` packed bytes from `in` into up to `count` elements at `base`; a short input
  // fills the first elements and part of the next, as a short message does (MPI-3.1 3.2.5).
  std::uint64_t unpack(const char* in, std::uint64_t bytes, std::intptr_t base, std::int64_t count,
                       std::int64_t extent, const AddressMap& mem) const;
  // Basic elements in the first `bytes` bytes of a packed stream of elements of this map, or -1
  // when the bytes end inside a basic element.
  std::int64_t count_elements(std::uint64_t bytes) const;

 private:
  static const std::vector<Run>& no_runs();
  // Basic elements in the first `bytes` (< size()) of one element, or -1.
  std::int64_t count_prefix(std::int64_t bytes) const;
  // for_each_block's loop; returns what is left of `limit` (0: stop).
  template <class F>
  std::uint64_t walk(std::intptr_t base, std::int64_t count, std::int64_t extent,
                     std::uint64_t limit, F& f) const;
  Run& last() { return runs_->back(); }
  // Copy-on-write: maps are shared by dup, resized and the types built on them. An empty map
  // holds no vector, so the many temporary types of the contiguous fast path cost nothing.
  void own();

  std::shared_ptr<std::vector<Run>> runs_;
  std::uint64_t size_ = 0;
  std::int64_t elements_ = 0;
};

template <class F>
std::uint64_t TypeMap::walk(std::intptr_t base, std::int64_t count, std::int64_t extent,
                            std::uint64_t limit, F& f) const {
  const std::vector<Run>& runs = this->runs();
  if (is_single_block() && extent == runs[0].len) {  // the contiguous fast path
    std::uint64_t total = static_cast<std::uint64_t>(count) * size_;
    std::uint64_t n = limit < total ? limit : total;
    f(base + runs[0].disp, n);
    return limit - n;
  }
  for (std::int64_t i = 0; i < count; ++i) {
    std::intptr_t origin = base + i * extent;
    for (const Run& r : runs) {
      if (r.body) {
        limit = r.body->walk(origin + r.disp, r.count, r.stride, limit, f);
        if (limit == 0) return 0;
        continue;
      }
      std::intptr_t at = origin + r.disp;
      for (std::int64_t j = 0; j < r.count; ++j, at += r.stride) {
        auto len = static_cast<std::uint64_t>(r.len);
        if (len >= limit) {
          f(at, limit);
          return 0;
        }
        f(at, len);
        limit -= len;
      }
    }
  }
  return limit;
}

}  // namespace simmpi::mpi
