// SPDX-License-Identifier: Apache-2.0
// Linear all-to-all: receives from rank + 1, rank + 2, ... are posted, then sends to rank - 1,
// rank - 2, ..., and all are waited for (Open MPI's "basic_linear", and its "linear_sync" with
// the default of no request limit). MPICH's "scattered" algorithm does the same in batches of
// `batch` peers (MPIR_CVAR_ALLTOALL_THROTTLE), waiting for each batch before the next; MPICH
// also sends to itself through the network, where this copies locally. Serves MPI_Alltoall and
// MPI_Alltoallv.
// Cost (equal blocks of b bytes, eager): a rank's i-th send starts its flow i o_s after the
// first and the block from rank + i is that rank's i-th send, so every link, in or out, carries
// flows started at the same times and shares alike; the last is received h(b) + (p - 2) g(b)
// after the first send (algorithms.hpp), so with all at once T = o_s + (p - 2) g(b) + L + w(b) +
// o_r = h(b) + (p - 2) g(b); in batches of m peers, T = (p - 1)/m (h(b) + (m - 1) g(b)).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

struct Exchange {
  CollContext& c;
  const char* in;
  char* out;
  const Sizes &sc, &sd, &rc, &rd;
  Request* recv_from(int i) {
    auto u = static_cast<std::size_t>((c.rank() + i) % c.size());
    return c.irecv(static_cast<int>(u), kTagAlltoall, out + rd[u], rc[u]);
  }
  Request* send_to(int i) {
    auto u = static_cast<std::size_t>((c.rank() - i + c.size()) % c.size());
    return c.isend(static_cast<int>(u), kTagAlltoall, in + sd[u], sc[u]);
  }
};

}  // namespace

void alltoallv_linear(CollContext& c, const void* sendbuf, const Sizes& scounts,
                      const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                      const Sizes& rdispls, int batch) {
  int n = c.size();
  Exchange x{c,
             static_cast<const char*>(sendbuf),
             static_cast<char*>(recvbuf),
             scounts,
             sdispls,
             rcounts,
             rdispls};
  auto me = static_cast<std::size_t>(c.rank());
  if (rcounts[me]) std::memmove(x.out + rdispls[me], x.in + sdispls[me], rcounts[me]);
  int peers = n - 1;
  if (batch <= 0 || batch > peers) batch = peers;
  if (peers == 0) return;
  std::vector<Request*> reqs;
  for (int first = 1; first <= peers; first += batch) {
    int last = first + batch - 1 < peers ? first + batch - 1 : peers;
    for (int i = first; i <= last; ++i) reqs.push_back(x.recv_from(i));
    for (int i = first; i <= last; ++i) reqs.push_back(x.send_to(i));
    c.wait_all(reqs);
  }
}

}  // namespace simmpi::mpi
