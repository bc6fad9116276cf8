// SPDX-License-Identifier: Apache-2.0
// Every collective algorithm, one file each (libsimmpi/coll/<collective>_<algorithm>.cpp, whose
// header comment gives its origin and its closed-form cost). Buffers hold contiguous bytes;
// MPI_IN_PLACE has been resolved by the caller into plain buffers as documented per function.
// All of them are blocking code for one rank: each may switch fibers.
//
// Costs use the transport's per-message time (libsimmpi/p2p/transport.hpp) on an idle machine:
// o_s and o_r the send and receive overheads, L the latency, w(S) = S/B the wire time of S
// bytes; a message costs h(S) = o_s + L + w(S) + o_r when eager and o_s + 3L + w(S) + o_r by
// rendezvous (its receive posted in time), and lg = ceil(log2 p).
// Messages do not queue at a NIC: flows that cross a link at the same time share it max-min
// fairly (hardware/network/flow_network.hpp). k sends of S bytes that one rank posts back to
// back start their flows o_s apart, and the j-th (from 0) is received fan_k(j) after the first
// is posted: h + j o_s when w(S) <= o_s (each flow alone on the link); when w(S) >= o_s H_{k-1}
// (H the harmonic numbers: all have started before the first ends), flow j leads flow j + 1 by
// o_s/(j + 1) of service at the last start, the flows end in order and the link never idles, so
// fan_k(j) = h - w + k w - o_s sum_{i=j+1..k-1} (k - i)/i. In every case the last is received
// at h + (k - 1) g(S), g(S) = max(o_s, w(S)) (LogGP's G, Alexandrov et al. 1995), and the
// earlier ones no sooner than under first-come-first-served queueing. Where flows of different
// steps meet on a link, the time depends on their interleaving and has no closed form in
// general; the costs below say which cases they cover.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/reduction.hpp"
#include "libsimmpi/coll/tree_shapes.hpp"

namespace simmpi::mpi {

using Sizes = std::vector<std::size_t>;

// --- barrier ---
void barrier_dissemination(CollContext& c);
void barrier_recursive_doubling(CollContext& c);
void barrier_linear(CollContext& c);
void barrier_tree(CollContext& c);

// --- broadcast: buf holds `bytes` at the root on entry and everywhere on return ---
// Segments of `segment` bytes (0: one segment) pipelined down `shape` (Open MPI's generic tree
// broadcast; the binomial shape with one segment is also MPICH's binomial broadcast).
void bcast_tree(CollContext& c, void* buf, std::size_t bytes, int root, const TreeShape& shape,
                std::size_t segment);
void bcast_linear(CollContext& c, void* buf, std::size_t bytes, int root);
void bcast_split_binary_tree(CollContext& c, void* buf, std::size_t bytes, int root,
                             std::size_t segment);
void bcast_scatter_allgather(CollContext& c, void* buf, std::size_t bytes, int root);
// The first half of both scatter-allgather broadcasts: a binomial scatter of blocks of `block`
// bytes, block i going to relative rank i; returns the bytes this rank then holds from its own
// block on (its subtree's blocks at the root of a subtree).
std::size_t bcast_scatter_blocks(CollContext& c, char* buf, std::size_t bytes, std::size_t block,
                                 int root);
void bcast_scatter_ring_allgather(CollContext& c, void* buf, std::size_t bytes, int root);

// --- reduce: recvbuf (significant at the root) gets the reduction of every sendbuf ---
// sendbuf and recvbuf may be the same buffer at the root.
void reduce_binomial(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                     const Reduction& red, int root);
// Segments of `segment_count` elements (0: one segment) combined up `shape` (Open MPI's generic
// tree reduction). For non-commutative operations use TreeKind::InOrderBinary.
void reduce_tree(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                 const Reduction& red, int root, const TreeShape& shape, int segment_count);
void reduce_linear(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                   const Reduction& red, int root);
void reduce_rabenseifner(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                         const Reduction& red, int root);

// --- allreduce: buf holds this rank's contribution on entry and the result on return ---
// The two first phases of Rabenseifner's reductions (allreduce_rabenseifner.cpp): the fold of
// p ranks onto q = 2^floor(log2 p), then the reduce-scatter by recursive halving over them.
struct RabenseifnerFold {
  int q = 1, rem = 0;
  int newrank = -1;                         // rank among the q, -1 for a rank that sat out
  std::vector<int> counts;                  // elements of block i (q blocks)
  std::vector<int> displs;                  // first element of block i (q + 1 entries)
  std::vector<std::pair<int, int>> ranges;  // block ranges split at each halving step
  int lo = 0, hi = 0;                       // this rank's blocks after the halving
  int real_rank(int nr) const { return nr < rem ? nr * 2 + 1 : nr + rem; }
  int elem(int block) const { return displs[static_cast<std::size_t>(block)]; }
  int elems(int lo_block, int hi_block) const { return elem(hi_block) - elem(lo_block); }
};
RabenseifnerFold rabenseifner_fold(CollContext& c, char* buf, int count, const Reduction& red,
                                   int tag);
void rabenseifner_halve(CollContext& c, RabenseifnerFold& f, char* buf, const Reduction& red,
                        int tag);
void allreduce_recursive_doubling(CollContext& c, void* buf, int count, const Reduction& red);
void allreduce_rabenseifner(CollContext& c, void* buf, int count, const Reduction& red);
// segment_count 0: the plain ring; else each block is reduced in segments of that many elements.
void allreduce_ring(CollContext& c, void* buf, int count, const Reduction& red, int segment_count);

// --- allgather(v): `packed` holds the blocks of all ranks in rank order (block i is
// counts[i] bytes at offsets[i]); block rank() is filled on entry, all of them on return ---
void allgatherv_bruck(CollContext& c, char* packed, const Sizes& counts, const Sizes& offsets);
void allgatherv_recursive_doubling(CollContext& c, char* packed, const Sizes& counts,
                                   const Sizes& offsets);
void allgatherv_ring(CollContext& c, char* packed, const Sizes& counts, const Sizes& offsets);
void allgatherv_neighbor_exchange(CollContext& c, char* packed, const Sizes& counts,
                                  const Sizes& offsets);

// --- all-to-all: block i of sendbuf goes to rank i, block j of recvbuf comes from rank j
// (byte counts and byte offsets); sendbuf and recvbuf do not overlap ---
void alltoallv_pairwise(CollContext& c, const void* sendbuf, const Sizes& scounts,
                        const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                        const Sizes& rdispls);
// Exchanges with `batch` peers at a time (0: all at once), each batch completed before the next.
void alltoallv_linear(CollContext& c, const void* sendbuf, const Sizes& scounts,
                      const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                      const Sizes& rdispls, int batch);
// Equal blocks of `block` bytes at the given byte displacements.
void alltoall_bruck(CollContext& c, const void* sendbuf, const Sizes& sdispls, void* recvbuf,
                    const Sizes& rdispls, std::size_t block);

// --- gather: the root receives counts[i] bytes from rank i at recvbuf + displs[i] ---
// sendbuf nullptr at the root: MPI_IN_PLACE.
void gatherv_linear(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                    const Sizes& counts, const Sizes& displs, int root);
// Open MPI's flow-controlled gather: the root asks each rank in turn for its data, of which the
// first `first_segment` bytes (0: all) must arrive before it asks the next one.
void gather_linear_sync(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                        const Sizes& counts, const Sizes& displs, int root,
                        std::size_t first_segment);
// Equal blocks of `block` bytes; `displs` (byte offsets) matter at the root only.
void gather_binomial(CollContext& c, const void* sendbuf, void* recvbuf, const Sizes& displs,
                     std::size_t block, int root);

// --- scatter: the root sends counts[i] bytes at sendbuf + displs[i] to rank i ---
// recvbuf nullptr at the root: MPI_IN_PLACE. `blocking`: one send completes before the next
// starts (Open MPI's basic linear); else all are posted at once.
void scatterv_linear(CollContext& c, const void* sendbuf, const Sizes& counts, const Sizes& displs,
                     void* recvbuf, std::size_t recvbytes, int root, bool blocking);
// Equal blocks of `block` bytes; `displs` (byte offsets) matter at the root only.
void scatter_binomial(CollContext& c, const void* sendbuf, const Sizes& displs, void* recvbuf,
                      std::size_t block, int root);

// --- reduce-scatter: `input` holds the sum(counts) elements of this rank (the algorithm may
// overwrite it); recvbuf gets the counts[rank()] reduced elements of this rank's block ---
void reduce_scatter_recursive_halving(CollContext& c, void* input, void* recvbuf,
                                      const std::vector<int>& counts, const Reduction& red);
void reduce_scatter_pairwise(CollContext& c, void* input, void* recvbuf,
                             const std::vector<int>& counts, const Reduction& red);
void reduce_scatter_ring(CollContext& c, void* input, void* recvbuf, const std::vector<int>& counts,
                         const Reduction& red);

// --- scan: buf holds this rank's value on entry and its inclusive (or exclusive) prefix on
// return; for the exclusive scan rank 0's buf is left untouched ---
void scan_recursive_doubling(CollContext& c, void* buf, int count, const Reduction& red,
                             bool exclusive);
void scan_linear(CollContext& c, void* buf, int count, const Reduction& red, bool exclusive);

}  // namespace simmpi::mpi
