// SPDX-License-Identifier: Apache-2.0
// What a collective algorithm works with: the caller's rank in the communicator and byte-wise
// point-to-point messages on the communicator's collective channel (never matched by user
// receives). Algorithms are plain blocking code running on the caller's fiber; each one is a
// file of its own under libsimmpi/coll/.
#pragma once

#include <cstddef>
#include <vector>

#include "libsimmpi/core/reduce_op.hpp"
#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

// Tags of the collective channel, one per collective, for readable deadlock reports.
enum CollTag : int {
  kTagBarrier = 1,
  kTagBcast,
  kTagReduce,
  kTagAllreduce,
  kTagGather,
  kTagScatter,
  kTagAllgather,
  kTagAlltoall,
  kTagScan,
};

class CollContext {
 public:
  CollContext(World& w, Communicator& comm);
  World& world() { return w_; }
  int rank() const { return rank_; }
  int size() const { return comm_.size(); }

  Request* isend(int dest, int tag, const void* buf, std::size_t bytes);
  Request* irecv(int source, int tag, void* buf, std::size_t bytes);
  void wait(Request* r);
  void wait_all(std::vector<Request*>& reqs);
  void send(int dest, int tag, const void* buf, std::size_t bytes);
  void recv(int source, int tag, void* buf, std::size_t bytes);
  void sendrecv(int dest, const void* sbuf, std::size_t sbytes, int source, void* rbuf,
                std::size_t rbytes, int tag);

 private:
  World& w_;
  Communicator& comm_;
  int rank_;
};

// The algorithms (one per file). Buffers hold contiguous elements of `type`; MPI_IN_PLACE has
// been resolved by the caller into plain buffers as documented per function.
void barrier_dissemination(CollContext& c);
void bcast_binomial(CollContext& c, void* buf, std::size_t bytes, int root);
// recvbuf (significant at root) gets the reduction of every rank's sendbuf.
void reduce_binomial(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                     const Datatype& type, MPI_Op op, int root);
// buf holds this rank's contribution on entry and the result on return.
void allreduce_recursive_doubling(CollContext& c, void* buf, int count, const Datatype& type,
                                  MPI_Op op);
// Root receives `counts[i]` bytes from rank i at `recvbuf + displs[i]` (byte offsets).
void gatherv_linear(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                    const std::vector<std::size_t>& counts, const std::vector<std::size_t>& displs,
                    int root);
void scatterv_linear(CollContext& c, const void* sendbuf, const std::vector<std::size_t>& counts,
                     const std::vector<std::size_t>& displs, void* recvbuf,
                     std::size_t recvbytes, int root);
// recvbuf holds size() blocks of `block` bytes; block rank() is filled on entry.
void allgather_bruck(CollContext& c, void* recvbuf, std::size_t block);
// Block i of sendbuf goes to rank i, block j of recvbuf comes from rank j (byte counts/offsets).
void alltoallv_pairwise(CollContext& c, const void* sendbuf, const std::vector<std::size_t>& scounts,
                        const std::vector<std::size_t>& sdispls, void* recvbuf,
                        const std::vector<std::size_t>& rcounts,
                        const std::vector<std::size_t>& rdispls);
// Inclusive (exclusive=false) or exclusive prefix reduction; buf holds this rank's value on
// entry. For the exclusive scan rank 0's buf is left untouched.
void scan_recursive_doubling(CollContext& c, void* buf, int count, const Datatype& type,
                             MPI_Op op, bool exclusive);

}  // namespace simmpi::mpi
