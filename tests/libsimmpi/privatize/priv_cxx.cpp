// SPDX-License-Identifier: Apache-2.0
// A C++ shared library the C++ test links: a global built by its constructor when the library
// loads, and a thread_local object with a constructor and a destructor, built on each rank's
// first use and destroyed when that rank ends.
#include <cstdio>

namespace {

struct Tracked {
  int value;
  int owner = -1;
  Tracked() : value(17) {}
  ~Tracked() {
    // Each rank destroys its own object when it ends; rank 0 says so.
    if (owner == 0 && value == 0)
      std::printf("privatize_libs_cxx: rank 0's library thread_local destroyed with its value\n");
    else if (owner >= 0 && value != owner)
      std::fprintf(stderr, "privatize_libs_cxx: rank %d's thread_local destroyed with %d\n", owner,
                   value);
  }
};

Tracked global_object;  // dynamic initialization, once, when the library loads
thread_local Tracked tls_object;

}  // namespace

int& cxx_global() {
  return global_object.value;
}
int& cxx_tls(int rank) {
  tls_object.owner = rank;
  return tls_object.value;
}
