// SPDX-License-Identifier: Apache-2.0
// Binomial-tree reduction (MPICH's short-message algorithm), the mirror of the binomial
// broadcast: each rank combines what its subtree sends, then passes the result to its parent.
// A lower relative rank's data is always the left operand, so the combination order is that of
// the ranks when the root is 0.
#include <cstring>
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void reduce_binomial(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                     const Datatype& type, MPI_Op op, int root) {
  int n = c.size();
  std::size_t bytes = type.size * static_cast<std::size_t>(count);
  std::vector<char> acc(bytes), tmp(bytes);
  if (bytes) std::memcpy(acc.data(), sendbuf, bytes);
  int vr = (c.rank() - root + n) % n;
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.send(((vr & ~mask) + root) % n, kTagReduce, acc.data(), bytes);
      return;
    }
    int child = vr | mask;
    if (child < n) {
      c.recv((child + root) % n, kTagReduce, tmp.data(), bytes);
      apply_op(op, type, acc.data(), tmp.data(), count);  // tmp = acc op tmp
      acc.swap(tmp);
    }
  }
  if (bytes) std::memcpy(recvbuf, acc.data(), bytes);
}

}  // namespace simmpi::mpi
