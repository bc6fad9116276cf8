// SPDX-License-Identifier: Apache-2.0
// Argument checks shared by the point-to-point entry points.
#include "libsimmpi/p2p/p2p_checks.hpp"

#include <climits>

#include "libsimmpi/p2p/buffered_send.hpp"

namespace simmpi::mpi {

P2PTarget check_p2p(ApiCall& call, Direction dir, const void* buf, MPI_Count count,
                    MPI_Datatype type, int peer, int tag, MPI_Comm comm) {
  P2PTarget t;
  t.comm = call.comm(comm);
  if (!t.comm) {
    t.error = MPI_ERR_COMM;
    return t;
  }
  if (count < 0) {
    t.error = call.fail(comm, MPI_ERR_COUNT, "count=%lld is negative", count);
    return t;
  }
  // A message of no elements may name no type (MPICH accepts it): it is empty bytes.
  t.type =
      count == 0 && type == MPI_DATATYPE_NULL ? find_datatype(MPI_BYTE) : call.datatype(type, comm);
  if (!t.type) {
    t.error = MPI_ERR_TYPE;
    return t;
  }
  // MPI_BOTTOM is a NULL buffer: fine when the type's data lies at absolute addresses (MPICH's
  // test: a derived type whose data does not start at displacement 0).
  if (!buf && count > 0 && t.type->size > 0 && t.type->true_lb == 0) {
    t.error = call.fail(comm, MPI_ERR_BUFFER, "buf is NULL with count=%lld", count);
    return t;
  }
  const char* what = dir == Direction::Send ? "dest" : "source";
  bool wildcard = dir == Direction::Recv && peer == MPI_ANY_SOURCE;
  int peers = t.comm->remote().size();  // an intercommunicator's peers are the other group
  if (!wildcard && peer != MPI_PROC_NULL && (peer < 0 || peer >= peers)) {
    t.error = call.fail(comm, MPI_ERR_RANK, "%s=%d not in [0,%d) of %s%s", what, peer, peers,
                        t.comm->name().c_str(),
                        t.comm->is_inter() ? " (the remote group of an intercommunicator)" : "");
    return t;
  }
  bool any_tag = dir == Direction::Recv && tag == MPI_ANY_TAG;
  if (!any_tag && tag < 0) {
    t.error = call.fail(comm, MPI_ERR_TAG, "tag=%d is negative%s", tag,
                        dir == Direction::Recv ? " and not MPI_ANY_TAG" : "");
    return t;
  }
  if (peer != MPI_PROC_NULL)
    call.note_payload(static_cast<std::int64_t>(t.type->size) * count,
                      wildcard ? -1 : t.comm->remote().world_rank(peer), any_tag ? -1 : tag);
  return t;
}

int check_truncation(ApiCall& call, const Request& r) {
  if (r.status.MPI_ERROR != MPI_ERR_TRUNCATE) return MPI_SUCCESS;
  return call.fail(r.comm ? r.comm->handle() : MPI_COMM_WORLD, MPI_ERR_TRUNCATE,
                   "message of %llu bytes from rank %d (tag %d) does not fit the receive buffer "
                   "of %llu bytes (%lld x %s)",
                   static_cast<unsigned long long>(r.message_bytes), r.status.MPI_SOURCE,
                   r.status.MPI_TAG, static_cast<unsigned long long>(r.capacity_bytes()),
                   static_cast<long long>(r.count), r.type->name);
}

int reserve_bsend(ApiCall& call, MPI_Comm comm, std::uint64_t bytes) {
  BsendBufferRef b = bsend_buffer_for(call.world, call.rank, comm);
  std::uint64_t charge = bytes + MPI_BSEND_OVERHEAD;
  if (b && b->fits(charge)) {
    b->used += charge;
    return MPI_SUCCESS;
  }
  if (!b)
    return call.fail(comm, MPI_ERR_BUFFER,
                     "no buffer is attached for a buffered send of %llu bytes; attach one with "
                     "MPI_Buffer_attach (or MPI_Comm_attach_buffer, MPI_Session_attach_buffer)",
                     static_cast<unsigned long long>(bytes));
  return call.fail(comm, MPI_ERR_BUFFER,
                   "the attached buffer (%llu bytes, %llu in use) cannot hold a message of %llu "
                   "bytes plus MPI_BSEND_OVERHEAD; attach a larger one with MPI_Buffer_attach",
                   static_cast<unsigned long long>(b->size),
                   static_cast<unsigned long long>(b->used),
                   static_cast<unsigned long long>(bytes));
}

}  // namespace simmpi::mpi
