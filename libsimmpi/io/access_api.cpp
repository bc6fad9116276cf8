// SPDX-License-Identifier: Apache-2.0
// Independent data access (MPI-3.1 13.4.2 to 13.4.4): explicit offsets (MPI_File_read_at,
// _write_at and their nonblocking MPI_File_iread_at, _iwrite_at), the individual file pointer
// (MPI_File_read, _write, _iread, _iwrite) and the shared file pointer (MPI_File_read_shared,
// _write_shared, _iread_shared, _iwrite_shared, _seek_shared, _get_position_shared). A blocking
// call is its nonblocking form and a wait.
#include "libsimmpi/io/file_access.hpp"
#include "libsimmpi/io/file_collective.hpp"
#include "libsimmpi/io/file_view.hpp"
#include "libsimmpi/io/host_data.hpp"

using namespace simmpi::mpi;
using simmpi::hardware::IoDirection;

namespace {

int blocking(const char* name, MPI_File fh, AccessArgs a, MPI_Status* status) {
  ApiCall call(name);
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  Request* q = start_access(call, r, a, &err);
  if (!q) return err;
  finish_access(call, q, status);
  return MPI_SUCCESS;
}

int nonblocking(const char* name, MPI_File fh, AccessArgs a, MPI_Request* request) {
  ApiCall call(name);
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!request) return file_fail(call, r, MPI_ERR_REQUEST, "request is NULL");
  Request* q = start_access(call, r, a, &err);
  if (!q) return err;
  *request = q->handle;
  return MPI_SUCCESS;
}

AccessArgs at(MPI_Offset offset, const void* buf, int count, MPI_Datatype type, IoDirection dir) {
  return AccessArgs{FilePointer::Explicit, offset, const_cast<void*>(buf), count, type, dir};
}
AccessArgs individual(const void* buf, int count, MPI_Datatype type, IoDirection dir) {
  return AccessArgs{FilePointer::Individual, 0, const_cast<void*>(buf), count, type, dir};
}
AccessArgs shared(const void* buf, int count, MPI_Datatype type, IoDirection dir) {
  return AccessArgs{FilePointer::Shared, 0, const_cast<void*>(buf), count, type, dir};
}

}  // namespace

extern "C" {

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                     MPI_Status* status) {
  return blocking("MPI_File_read_at", fh, at(offset, buf, count, datatype, IoDirection::Read),
                  status);
}
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                      MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write_at", fh, at(offset, buf, count, datatype, IoDirection::Write),
                  status);
}
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                      MPI_Request* request) {
  return nonblocking("MPI_File_iread_at", fh, at(offset, buf, count, datatype, IoDirection::Read),
                     request);
}
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                       MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_at", fh, at(offset, buf, count, datatype, IoDirection::Write),
                     request);
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read", fh, individual(buf, count, datatype, IoDirection::Read), status);
}
int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                   MPI_Status* status) {
  return blocking("MPI_File_write", fh, individual(buf, count, datatype, IoDirection::Write),
                  status);
}
int MPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iread", fh, individual(buf, count, datatype, IoDirection::Read),
                     request);
}
int MPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                    MPI_Request* request) {
  return nonblocking("MPI_File_iwrite", fh, individual(buf, count, datatype, IoDirection::Write),
                     request);
}

int MPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype,
                         MPI_Status* status) {
  return blocking("MPI_File_read_shared", fh, shared(buf, count, datatype, IoDirection::Read),
                  status);
}
int MPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  return blocking("MPI_File_write_shared", fh, shared(buf, count, datatype, IoDirection::Write),
                  status);
}
int MPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype,
                          MPI_Request* request) {
  return nonblocking("MPI_File_iread_shared", fh, shared(buf, count, datatype, IoDirection::Read),
                     request);
}
int MPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                           MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_shared", fh, shared(buf, count, datatype, IoDirection::Write),
                     request);
}

// Collective: every member passes the same offset and whence (MPI-3.1 13.4.4).
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  ApiCall call("MPI_File_seek_shared");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  MPI_Offset to = offset;
  if (whence == MPI_SEEK_CUR)
    to = r.file->shared_position + offset;
  else if (whence == MPI_SEEK_END)
    to = view_etypes_before(r.member().view, host_size(r.file->fd)) + offset;
  else if (whence != MPI_SEEK_SET)
    return file_fail(call, r, MPI_ERR_ARG,
                     "whence=%d is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END", whence);
  if (to < 0)
    return file_fail(call, r, MPI_ERR_ARG, "offset=%lld from whence=%d gives position %lld < 0",
                     offset, whence, to);
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, "MPI_File_seek_shared", offset, &seq);
  if (err != MPI_SUCCESS) return err;
  // All members must have read the old pointer before any moves it.
  file_barrier(call, r, seq);
  r.file->shared_position = to;
  return MPI_SUCCESS;
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  ApiCall call("MPI_File_get_position_shared");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!offset) return file_fail(call, r, MPI_ERR_ARG, "offset is NULL");
  *offset = r.file->shared_position;
  return MPI_SUCCESS;
}

}  // extern "C"
