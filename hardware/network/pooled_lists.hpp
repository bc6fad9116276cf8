// SPDX-License-Identifier: Apache-2.0
// Many short lists (the flows on each of a network's millions of links) in one array: a list
// lives in a block of 2^k cells, taken from a free list of its size or from the array's end, and
// moves to a block twice as large when it fills. Its head, which its owner embeds (a link's head
// sits in the link's own cache line), is a cell and 4 bytes; where a std::vector per link took 24
// bytes there and a heap block of its own elsewhere, at a million endpoints every hop of a flow
// missed twice, and the millions of heap blocks were freed one by one at exit.
//
// A list of one cell keeps it in its head, and takes a block only when a second cell comes (and
// goes back to its head when it shrinks to one): at low load most links that hold a flow hold
// only that one, and adding or removing it then touches the link's line alone, not a block's too.
//
// Blocks of up to 8 cells start at a multiple of their size, so a short list lies in one cache
// line when a cell is 8 bytes. An emptied block goes back (the next list of that size reuses it,
// likely still in cache). Order within a list is the caller's: push_back appends, erase moves the
// last cell into the hole, as a vector used that way would.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/core/error.hpp"
#include "runtime/core/huge_page_allocator.hpp"

namespace simmpi::hardware {

template <class T>
class PooledLists {
 public:
  struct Head {
    union {
      T one;                 // the cell of a list of one
      std::uint32_t at = 0;  // a longer list's block: its first cell
    };
    std::uint32_t size : 26 = 0;
    std::uint32_t log_cap : 6 = kNoBlock;  // a longer list's block: log2 of its cells
  };

  static std::size_t size(const Head& h) { return h.size; }
  T* begin(Head& h) { return h.size <= 1 ? &h.one : cells_.data() + h.at; }
  T* end(Head& h) { return begin(h) + h.size; }
  const T* begin(const Head& h) const { return h.size <= 1 ? &h.one : cells_.data() + h.at; }
  const T* end(const Head& h) const { return begin(h) + h.size; }
  // Starts loading a longer list's first and last cells (what a search of a short list reads).
  void prefetch(const Head& h) const {
    if (h.size <= 1) return;
    __builtin_prefetch(cells_.data() + h.at);
    __builtin_prefetch(cells_.data() + h.at + h.size - 1);
  }

  // Room for `cells` cells in all, allocated ahead (touched only as lists reach it).
  void reserve(std::size_t cells) { cells_.reserve(cells); }

  // Appends `value`; may move the list (and every list's cells: pointers into the pool are
  // valid until the next push_back).
  void push_back(Head& h, const T& value) {
    if (h.size == 0)
      h.one = value;
    else if (h.size == 1 || h.size == 1u << h.log_cap)
      move_to_bigger_block(h);
    if (h.size > 0) cells_[h.at + h.size] = value;
    h.size = h.size + 1;
  }
  // Removes the first cell equal to `value`, which the list holds: the last cell takes its place
  // (as a vector used that way would).
  void erase(Head& h, const T& value) {
    T* cells = begin(h);
    std::uint32_t i = 0;
    while (!(cells[i] == value)) {
      ++i;
      SIMMPI_ASSERT(i < h.size, "a pooled list erases a value it does not hold");
    }
    cells[i] = cells[h.size - 1];
    pop_back(h);
  }
  // Removes the last cell; a list left with one takes it into its head and gives its block back.
  void pop_back(Head& h) {
    h.size = h.size - 1;
    if (h.size == 1) {
      const T first = cells_[h.at];
      give_back(h.at, h.log_cap);
      h.one = first;
      h.log_cap = kNoBlock;
    }
  }

 private:
  static constexpr std::uint32_t kNoBlock = 63;
  static constexpr std::uint32_t kFirstLog = 1;  // most longer lists hold two cells
  static constexpr std::uint32_t kMaxAlign = 8;  // cells: a cache line of 8-byte cells

  // A list of one into a block of two, or a full block's list into one twice as large.
  [[gnu::noinline]] void move_to_bigger_block(Head& h) {
    if (h.size == 1) {
      const T first = h.one;
      h.at = take(kFirstLog);
      h.log_cap = kFirstLog;
      cells_[h.at] = first;
      return;
    }
    SIMMPI_ASSERT(h.log_cap + 1u < kNoBlock, "a pooled list outgrew %u cells", 1u << h.log_cap);
    const std::uint32_t bigger = take(h.log_cap + 1);
    std::copy_n(cells_.data() + h.at, h.size, cells_.data() + bigger);
    give_back(h.at, h.log_cap);
    h.at = bigger;
    h.log_cap = h.log_cap + 1;
  }
  std::uint32_t take(std::uint32_t log) {
    std::vector<std::uint32_t>& free = free_[log];
    if (!free.empty()) {
      const std::uint32_t at = free.back();
      free.pop_back();
      return at;
    }
    const std::size_t cells = std::size_t{1} << log;
    const std::size_t align = cells < kMaxAlign ? cells : kMaxAlign;
    const std::size_t at = (cells_.size() + align - 1) / align * align;
    SIMMPI_ASSERT(at + cells <= UINT32_MAX, "pooled lists exceed 2^32 cells");
    cells_.resize(at + cells);
    return static_cast<std::uint32_t>(at);
  }
  void give_back(std::uint32_t at, std::uint32_t log) { free_[log].push_back(at); }

  runtime::HugePageVector<T> cells_;
  std::vector<std::uint32_t> free_[kNoBlock];  // blocks by log2 of their size
};

}  // namespace simmpi::hardware
