// SPDX-License-Identifier: Apache-2.0
// Independent accesses: checks, data, pointers and timing.
#include "libsimmpi/io/file_access.hpp"

#include <cerrno>
#include <cstring>

#include "libsimmpi/io/host_data.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {

int check_access(ApiCall& call, const FileRef& r, const AccessArgs& a, const Datatype** type) {
  const bool write = a.dir == hardware::IoDirection::Write;
  const int amode = r.file->amode;
  if (write && (amode & MPI_MODE_RDONLY))
    return file_fail(call, r, MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
  if (!write && (amode & MPI_MODE_WRONLY))
    return file_fail(call, r, MPI_ERR_ACCESS, "the file was opened MPI_MODE_WRONLY");
  if ((amode & MPI_MODE_SEQUENTIAL) && a.where != FilePointer::Shared)
    return file_fail(call, r, MPI_ERR_UNSUPPORTED_OPERATION,
                     "the file was opened MPI_MODE_SEQUENTIAL: only shared file pointer calls "
                     "may access it");
  if (a.where == FilePointer::Explicit && a.offset < 0)
    return file_fail(call, r, MPI_ERR_ARG, "offset=%lld is negative", a.offset);
  if (a.count < 0) return file_fail(call, r, MPI_ERR_COUNT, "count=%d is negative", a.count);
  const Datatype* t = find_datatype(a.type, call.rank);
  if (!t) return file_fail(call, r, MPI_ERR_TYPE, "datatype is not a datatype of this rank");
  if (!is_committed(*t))
    return file_fail(call, r, MPI_ERR_TYPE, "datatype %s is not committed", t->name);
  if (!a.buf && a.count > 0 && t->size > 0)
    return file_fail(call, r, MPI_ERR_BUFFER, "buf is NULL");
  const Datatype& etype = *r.member().view.etype;
  std::uint64_t bytes = t->size * static_cast<std::uint64_t>(a.count);
  if (bytes % etype.size != 0)
    return file_fail(call, r, MPI_ERR_TYPE,
                     "%d x %s (%lu bytes) is not a whole number of the view's etype %s (%zu bytes)",
                     a.count, t->name, static_cast<unsigned long>(bytes), etype.name, etype.size);
  *type = t;
  return MPI_SUCCESS;
}

std::uint64_t move_data(ApiCall& call, const FileRef& r, const AccessArgs& a, const Datatype& type,
                        MPI_Offset position, std::vector<FileSegment>& segments, int* err) {
  *err = MPI_SUCCESS;
  const FileView& v = r.member().view;
  std::uint64_t bytes = type.size * static_cast<std::uint64_t>(a.count);
  segments.clear();
  view_segments(v, static_cast<std::uint64_t>(position) * v.etype->size, bytes, segments);
  TypedBuffer mem{call.rank, a.buf, a.count, &type};
  if (a.dir == hardware::IoDirection::Write) {
    if (int e = host_write(call.world, r.file->fd, mem, segments, bytes, r.file->path()); e != 0)
      *err = file_fail(call, r, e == ENOSPC ? MPI_ERR_NO_SPACE : MPI_ERR_IO,
                       "writing %lu bytes at offset %lld failed: %s",
                       static_cast<unsigned long>(bytes), position, std::strerror(e));
    return bytes;
  }
  int e = 0;
  std::uint64_t got = host_read(call.world, r.file->fd, mem, segments, bytes, &e);
  if (e != 0)
    *err = file_fail(call, r, MPI_ERR_IO, "reading %lu bytes at offset %lld failed: %s",
                     static_cast<unsigned long>(bytes), position, std::strerror(e));
  return got;
}

Request* start_access(ApiCall& call, const FileRef& r, const AccessArgs& a, int* err) {
  const Datatype* type = nullptr;
  *err = check_access(call, r, a, &type);
  if (*err != MPI_SUCCESS) return nullptr;
  FileMember& m = r.member();
  const std::uint64_t etype_bytes = m.view.etype->size;
  MPI_Offset position = a.where == FilePointer::Explicit     ? a.offset
                        : a.where == FilePointer::Individual ? m.position
                                                             : r.file->shared_position;
  if (a.where == FilePointer::Shared) {
    // The shared pointer moves by the whole request at once (ROMIO takes it under a lock, one
    // small request to the file system: a metadata operation here).
    r.file->shared_position +=
        static_cast<MPI_Offset>(type->size * static_cast<std::uint64_t>(a.count) / etype_bytes);
    wait_metadata(call);
  }
  thread_local std::vector<FileSegment> segments;
  std::uint64_t moved = move_data(call, r, a, *type, position, segments, err);
  if (*err != MPI_SUCCESS) return nullptr;
  if (a.where == FilePointer::Individual)
    m.position += static_cast<MPI_Offset>(moved / etype_bytes);
  Request* q = make_io_request(call, *r.file);
  q->type = type;
  q->count = a.count;
  q->status.simmpi_bytes = static_cast<long long>(moved);
  time_access(call.world, *r.file, call.rank, segments, moved, a.dir, q);
  return q;
}

void finish_access(ApiCall& call, Request* q, MPI_Status* status) {
  wait_request(call.world, *q);
  retire_request(call.world, q, status);
}

}  // namespace simmpi::mpi
