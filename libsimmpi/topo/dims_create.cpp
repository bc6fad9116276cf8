// SPDX-License-Identifier: Apache-2.0
// MPI_Dims_create: the most balanced grid. The free dimensions get the factorization of what is
// left of nnodes into non-increasing factors whose largest and smallest differ least (ties: the
// larger smallest factor, then the same rule for the factors before it, as MPICH chooses: 5040
// in 3 -> 21x16x15, not 20x18x14; 5616 in 4 -> 13x9x8x6, not 13x12x6x6), found by an
// exhaustive search over divisors, pruned because the first factor of k is at least the k-th
// root of what remains. MPICH's topo tests (dims1-5, 75,000 shapes in dims5) expect these,
// e.g. 12 in 2 -> 4x3, 24 in 3 -> 4x3x2, 64 in 3 -> 4x4x4.
#include <algorithm>
#include <vector>

#include "libsimmpi/core/api_call.hpp"

using namespace simmpi::mpi;

namespace {

struct Search {
  std::vector<int> divisors;  // of the number to factor, largest first
  std::vector<int> current, best;

  explicit Search(int n) {
    std::vector<int> large;
    for (int d = 1; static_cast<long long>(d) * d <= n; ++d)
      if (n % d == 0) {
        divisors.push_back(d);
        if (d != n / d) large.push_back(n / d);
      }
    divisors.insert(divisors.end(), large.rbegin(), large.rend());
    std::reverse(divisors.begin(), divisors.end());
  }

  // Whether f^k >= n, without overflow.
  static bool covers(long long f, int k, long long n) {
    long long p = 1;
    for (int i = 0; i < k && p < n; ++i) p *= f;
    return p >= n;
  }

  void run(int rest, int k, int max_factor) {
    if (k == 0) {
      if (rest == 1) keep();
      return;
    }
    for (int f : divisors) {
      if (f > max_factor || rest % f) continue;
      if (!covers(f, k, rest)) return;  // smaller factors cannot be the largest of k
      current.push_back(f);
      run(rest / f, k - 1, f);
      current.pop_back();
    }
  }

  // Whether non-increasing factors `a` are more balanced than `b`: the smaller spread (largest
  // minus smallest), then the larger smallest factor, then the same for the factors before the
  // smallest, and so on.
  static bool more_balanced(const std::vector<int>& a, const std::vector<int>& b) {
    for (std::size_t k = a.size(); k >= 2; --k) {
      const int spread_a = a.front() - a[k - 1], spread_b = b.front() - b[k - 1];
      if (spread_a != spread_b) return spread_a < spread_b;
      if (a[k - 1] != b[k - 1]) return a[k - 1] > b[k - 1];
    }
    return false;
  }

  void keep() {
    if (best.empty() || more_balanced(current, best)) best = current;
  }
};

}  // namespace

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  ApiCall call("MPI_Dims_create", ApiCall::Needs::Nothing);
  if (ndims < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_DIMS, "ndims=%d is negative", ndims);
  if (nnodes <= 0)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "nnodes=%d is not positive", nnodes);
  if (ndims > 0 && !dims) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "dims is NULL");
  long long fixed = 1;
  int free_dims = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0)
      return call.fail(MPI_COMM_WORLD, MPI_ERR_DIMS, "dims[%d]=%d is negative", i, dims[i]);
    if (dims[i] == 0)
      ++free_dims;
    else
      fixed *= dims[i];
    if (fixed > nnodes) break;
  }
  if (nnodes % fixed != 0)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_DIMS,
                     "nnodes=%d is not a multiple of %lld, the "
                     "product of the nonzero entries of dims",
                     nnodes, fixed);
  int rest = static_cast<int>(nnodes / fixed);
  if (free_dims == 0) {
    if (rest != 1)
      return call.fail(MPI_COMM_WORLD, MPI_ERR_DIMS, "dims fixes %lld processes, not nnodes=%d",
                       fixed, nnodes);
    return MPI_SUCCESS;
  }
  Search s(rest);
  s.run(rest, free_dims, rest);
  for (int i = 0, k = 0; i < ndims; ++i)
    if (dims[i] == 0) dims[i] = s.best[static_cast<std::size_t>(k++)];
  return MPI_SUCCESS;
}

}  // extern "C"
