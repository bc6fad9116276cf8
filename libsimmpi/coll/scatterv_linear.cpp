// SPDX-License-Identifier: Apache-2.0
// Linear scatter: the root sends each rank its block; the others receive once. Open MPI's
// "basic_linear" sends one block after the other with blocking sends; its "linear_nb" and
// MPICH's scatterv post all sends at once and wait for them. Serves MPI_Scatter and
// MPI_Scatterv.
// Cost (blocks of b bytes, eager): the root's sends are posted o_s apart and the last is
// received h(b) + (p - 2) g(b) after the first (algorithms.hpp),
// T = o_s + (p - 2) g(b) + L + w(b) + o_r. Rendezvous, posted at once:
// T = o_s + (p - 2) g(b) + 3L + w(b) + o_r; one after the other, each send waits for its data to
// arrive: T = (p - 1) (o_s + 3L + w(b)) + o_r.
#include <cstring>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void scatterv_linear(CollContext& c, const void* sendbuf, const Sizes& counts, const Sizes& displs,
                     void* recvbuf, std::size_t recvbytes, int root, bool blocking) {
  if (c.rank() != root) {
    c.recv(root, kTagScatter, recvbuf, recvbytes);
    return;
  }
  auto* in = static_cast<const char*>(sendbuf);
  std::vector<Request*> sends;
  for (int i = 0; i < c.size(); ++i) {
    if (i == root) continue;
    sends.push_back(c.isend(i, kTagScatter, in + displs[static_cast<std::size_t>(i)],
                            counts[static_cast<std::size_t>(i)]));
    if (blocking) c.wait_all(sends);
  }
  std::size_t own = counts[static_cast<std::size_t>(root)];
  if (recvbuf && own)  // nullptr: MPI_IN_PLACE, the root keeps its block where it is
    std::memmove(recvbuf, in + displs[static_cast<std::size_t>(root)], own);
  c.wait_all(sends);
}

}  // namespace simmpi::mpi
