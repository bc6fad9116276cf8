// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) calls' hand-over of counts to the int implementation (see the header).
#include "libsimmpi/core/count_narrowing.hpp"

#include <climits>

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

int CountNarrowing::operator()(long long v, const char* what) {
  return element(v, what, -1);
}

int CountNarrowing::capacity(long long bytes) {
  return bytes > INT_MAX ? INT_MAX : static_cast<int>(bytes);
}

int CountNarrowing::element(long long v, const char* what, int index) {
  if (v >= INT_MIN && v <= INT_MAX) return static_cast<int>(v);
  if (!what_) {
    what_ = what;
    index_ = index;
    value_ = v;
  }
  return 0;
}

std::string CountNarrowing::message() const {
  std::string arg = what_ ? what_ : "";
  if (index_ >= 0) arg += "[" + std::to_string(index_) + "]";
  return arg + "=" + std::to_string(value_) +
         " does not fit an int; simmpi's implementation of this call holds its counts in int, so "
         "it takes only values up to " +
         std::to_string(INT_MAX) +
         " (point-to-point calls, most datatype constructors and the datatype queries take any "
         "MPI_Count)";
}

int CountNarrowing::fail(MPI_Comm comm) const {
  ApiCall call(call_);
  return call.fail(comm, MPI_ERR_COUNT, "%s", message().c_str());
}

}  // namespace simmpi::mpi
