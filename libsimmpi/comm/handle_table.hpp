// SPDX-License-Identifier: Apache-2.0
// A table of objects named by integer handles, (kind << 24) | index, with recycled indices.
// Indices below `first` are the kind's predefined handles and are never handed out.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi.h"

namespace simmpi::mpi {

template <class T>
class HandleTable {
 public:
  HandleTable(unsigned kind, int first) : kind_(kind), first_(first) {}

  int add(T value) {
    return emplace([&](int) { return std::move(value); });
  }
  // Adds make(h), for objects that must know their own handle h when they are made.
  template <class Make>
  int emplace(Make&& make) {
    std::size_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = slots_.size() + static_cast<std::size_t>(first_);
      slots_.emplace_back();
    }
    int h = SIMMPI_HANDLE(kind_, index);
    slots_[index - static_cast<std::size_t>(first_)] = make(h);
    return h;
  }
  // nullptr unless `h` names a live entry.
  T* find(int h) {
    auto u = static_cast<unsigned>(h);
    if ((u >> 24) != kind_) return nullptr;
    std::size_t index = u & 0xFFFFFFu;
    if (index < static_cast<std::size_t>(first_)) return nullptr;
    index -= static_cast<std::size_t>(first_);
    return index < slots_.size() && slots_[index] ? &*slots_[index] : nullptr;
  }
  void remove(int h) {
    std::size_t index = (static_cast<unsigned>(h) & 0xFFFFFFu) - static_cast<std::size_t>(first_);
    slots_[index].reset();
    free_.push_back(index + static_cast<std::size_t>(first_));
  }

 private:
  unsigned kind_;
  int first_;
  std::vector<std::optional<T>> slots_;
  std::vector<std::size_t> free_;  // reused last-freed first: deterministic either way
};

}  // namespace simmpi::mpi
