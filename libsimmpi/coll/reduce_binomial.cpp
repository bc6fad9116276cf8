// SPDX-License-Identifier: Apache-2.0
// Binomial-tree reduction (MPICH's short-message reduce, Thakur, Rabenseifner, Gropp 2005
// section 4.2), the mirror of the binomial broadcast: each rank receives its children's partial
// results nearest first, one blocking receive after the other, combines them and passes the
// result to its parent. A lower relative rank's data is always the left operand, so the order is
// that of the ranks when the tree is rooted at rank 0; for a non-commutative operation and
// another root MPICH reduces to rank 0, which then sends the result to the root.
// Cost (p = 2^k): rank 0 waits for its children in turn; the child at distance 2^i finishes
// its subtree at i h, so T = lg h, plus one message for the non-commutative relay.
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void reduce_binomial(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                     const Reduction& red, int root) {
  int n = c.size();
  int tree_root = red.commutative ? root : 0;
  std::size_t bytes = red.bytes(count);
  std::vector<char> acc(bytes), tmp(bytes);
  if (bytes) std::memcpy(acc.data(), sendbuf, bytes);
  int vr = (c.rank() - tree_root + n) % n;
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.send(((vr & ~mask) + tree_root) % n, kTagReduce, acc.data(), bytes);
      break;
    }
    int child = vr | mask;
    if (child < n) {
      c.recv((child + tree_root) % n, kTagReduce, tmp.data(), bytes);
      red.apply(acc.data(), tmp.data(), count);  // tmp = acc op tmp
      acc.swap(tmp);
    }
  }
  if (tree_root != root) {  // the non-commutative relay from rank 0
    if (c.rank() == tree_root) c.send(root, kTagRelay, acc.data(), bytes);
    if (c.rank() == root) c.recv(tree_root, kTagRelay, acc.data(), bytes);
  }
  if (c.rank() == root && bytes) std::memcpy(recvbuf, acc.data(), bytes);
}

}  // namespace simmpi::mpi
