// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) entry points of MPI-4.1 whose implementation still holds counts in int
// (collectives, one-sided, I/O, packing, subarray and darray types): the _c call hands its counts
// to the int call when each fits, and otherwise fails with MPI_ERR_COUNT naming the call, the
// argument and its value, never truncating. Point-to-point, the other datatype constructors and
// the datatype queries are 64-bit throughout (their int and _c forms share one implementation)
// and do not use this.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "mpi.h"

namespace simmpi::mpi {

class CountNarrowing {
 public:
  explicit CountNarrowing(const char* call) : call_(call) {}
  CountNarrowing(const CountNarrowing&) = delete;
  CountNarrowing& operator=(const CountNarrowing&) = delete;

  // `v` as an int; a value outside int's range is noted (the first one is reported) and 0 given.
  int operator()(long long v, const char* what);
  // A buffer's capacity in bytes (MPI_Pack_c's outsize): more than INT_MAX bytes of room holds
  // anything the int call can write, so it becomes INT_MAX instead of an error.
  static int capacity(long long bytes);
  // The `n` values of `a` as ints, or nullptr for a nullptr `a`; valid while this object lives.
  template <class T>
  const int* array(const T* a, int n, const char* what) {
    if (!a) return nullptr;
    std::vector<int>& out = arrays_.emplace_back(n > 0 ? n : 0);
    for (int i = 0; i < n; ++i) out[i] = element(a[i], what, i);
    return out.data();
  }
  bool fits() const { return what_ == nullptr; }
  // Raises MPI_ERR_COUNT under `comm`'s error handler (MPI_COMM_WORLD's for windows and files
  // through the overloads of the areas that own them): "count=3000000000 does not fit ...".
  int fail(MPI_Comm comm) const;
  // What fail() says, for the areas that raise through their own objects' handlers.
  std::string message() const;
  const char* call() const { return call_; }

 private:
  int element(long long v, const char* what, int index);
  const char* call_;
  const char* what_ = nullptr;
  int index_ = -1;
  long long value_ = 0;
  std::deque<std::vector<int>> arrays_;
};

}  // namespace simmpi::mpi
