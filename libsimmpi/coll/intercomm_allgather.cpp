// SPDX-License-Identifier: Apache-2.0
// MPI_Allgather and MPI_Allgatherv on an intercommunicator, as MPICH runs them.
// Allgather (MPIR_Allgather_inter_local_gather_remote_bcast): each group gathers its blocks to
// its leader with the selected intra gather; then the low group's leader broadcasts them to the
// high group (inter_bcast: to its leader, then the intra broadcast), and the high group's
// leader its own to the low group. Cost: T_gather(b) in each group, then two inter broadcasts
// of n b bytes one after the other.
// Allgatherv (MPIR_Allgatherv_inter_remote_gather_local_bcast): only the receivers know the
// block sizes, so the low group's leader gathers the high group's blocks straight from its
// members (an inter gatherv), then the high group's leader the low group's; each leader then
// broadcasts what it got in its group.
#include <numeric>
#include <vector>

#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {
namespace {

// The inter broadcast of the leader's gathered blocks (`all`) from the low group or the high
// one, in turn; the other group's come into recvbuf.
void swap_gathered(CollContext& c, std::vector<char>& all, void* recvbuf, std::size_t in_bytes,
                   const Sizes& counts, const Sizes& displs) {
  const int send_root = c.rank() == 0 ? MPI_ROOT : MPI_PROC_NULL;
  std::vector<char> got(in_bytes);
  auto send = [&] { inter_bcast(c, all.data(), static_cast<int>(all.size()), 1, send_root); };
  auto receive = [&] { inter_bcast(c, got.data(), static_cast<int>(in_bytes), 1, 0); };
  if (is_low_group(c)) {
    send();
    receive();
  } else {
    receive();
    send();
  }
  unpack_blocks(got.data(), counts, displs, static_cast<char*>(recvbuf));
}

void allgather_inter(CollContext& c, const void* sendbuf, std::size_t block, void* recvbuf,
                     const Sizes& counts, const Sizes& displs) {
  const auto n = static_cast<std::size_t>(c.size());
  std::vector<char> all(c.rank() == 0 ? n * block : 0);
  Sizes local_counts(n, block), local_displs(n);
  for (std::size_t i = 0; i < n; ++i) local_displs[i] = i * block;
  CollContext local = local_side(c);
  if (block)
    run_gather(local, Coll::Gather, sendbuf, block, all.data(), local_counts, local_displs, 0);
  std::size_t in_bytes = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  swap_gathered(c, all, recvbuf, in_bytes, counts, displs);
}

void allgatherv_inter(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                      const Sizes& counts, const Sizes& displs) {
  std::size_t in_bytes = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  std::vector<char> got(c.rank() == 0 ? in_bytes : 0);
  Sizes packed(counts.size());
  for (std::size_t i = 0, at = 0; i < counts.size(); at += counts[i], ++i) packed[i] = at;
  const int gather_root = c.rank() == 0 ? MPI_ROOT : MPI_PROC_NULL;
  auto gather_here = [&] {
    inter_gather(c, Coll::Gatherv, nullptr, 0, got.data(), counts, packed, gather_root);
  };
  auto gather_there = [&] {
    inter_gather(c, Coll::Gatherv, sendbuf, sendbytes, nullptr, {}, {}, 0);
  };
  if (is_low_group(c)) {
    gather_here();
    gather_there();
  } else {
    gather_there();
    gather_here();
  }
  got.resize(in_bytes);
  CollContext local = local_side(c);
  run_bcast(local, got.data(), static_cast<int>(in_bytes), 1, 0);
  unpack_blocks(got.data(), counts, displs, static_cast<char*>(recvbuf));
}

}  // namespace

void inter_allgatherv(CollContext& c, Coll which, const void* sendbuf, std::size_t sendbytes,
                      void* recvbuf, const Sizes& counts, const Sizes& displs) {
  if (which == Coll::Allgather)
    return allgather_inter(c, sendbuf, sendbytes, recvbuf, counts, displs);
  allgatherv_inter(c, sendbuf, sendbytes, recvbuf, counts, displs);
}

}  // namespace simmpi::mpi
