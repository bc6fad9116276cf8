// SPDX-License-Identifier: Apache-2.0
// One function per collective on resolved, contiguous byte buffers: it asks selection.hpp for
// the plan and runs that algorithm (algorithms.hpp), falling back where an algorithm cannot
// serve the call as the libraries do (noted in dispatch.cpp). The blocking entry points call
// these directly; the nonblocking ones call them on their auxiliary process. All may switch.
#pragma once

#include <vector>

#include "libsimmpi/coll/algorithms.hpp"
#include "libsimmpi/coll/selection.hpp"

namespace simmpi::mpi {

void run_barrier(CollContext& c);
// `elem_bytes`: the datatype's size (segments hold whole elements).
void run_bcast(CollContext& c, void* buf, int count, std::size_t elem_bytes, int root);
void run_reduce(CollContext& c, const void* sendbuf, void* recvbuf, int count, const Reduction& red,
                int root);
void run_allreduce(CollContext& c, void* buf, int count, const Reduction& red);
// `which`: Coll::Allgather (equal blocks) or Coll::Allgatherv.
void run_allgatherv(CollContext& c, Coll which, char* packed, const Sizes& counts,
                    const Sizes& offsets);
// `which`: Coll::Alltoall or Coll::Alltoallv. `in_place`: the application passed MPI_IN_PLACE
// (sendbuf is then a copy of recvbuf).
void run_alltoallv(CollContext& c, Coll which, bool in_place, const void* sendbuf,
                   const Sizes& scounts, const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                   const Sizes& rdispls);
// `which`: Coll::Gather or Coll::Gatherv; counts and displs matter at the root only.
void run_gather(CollContext& c, Coll which, const void* sendbuf, std::size_t sendbytes,
                void* recvbuf, const Sizes& counts, const Sizes& displs, int root);
void run_scatter(CollContext& c, Coll which, const void* sendbuf, const Sizes& counts,
                 const Sizes& displs, void* recvbuf, std::size_t recvbytes, int root);
// `which`: Coll::ReduceScatter or Coll::ReduceScatterBlock. `input` may be overwritten.
void run_reduce_scatter(CollContext& c, Coll which, void* input, void* recvbuf,
                        const std::vector<int>& counts, const Reduction& red);
// `which`: Coll::Scan or Coll::Exscan.
void run_scan(CollContext& c, Coll which, void* buf, int count, const Reduction& red);

}  // namespace simmpi::mpi
