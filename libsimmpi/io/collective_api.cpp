// SPDX-License-Identifier: Apache-2.0
// Collective data access (MPI-3.1 13.4.2 to 13.4.5): MPI_File_read_at_all, _write_at_all,
// _read_all, _write_all, their nonblocking forms (MPI_File_iread_at_all...), their split forms
// (_begin and _end), and the ordered shared-pointer calls MPI_File_read_ordered and
// _write_ordered with their split forms. Each runs two-phase aggregation (two_phase.hpp): on the
// caller's fiber when blocking, else on an auxiliary process of the caller whose end completes
// the request (a split collective's _end waits for it). The individual file pointer moves at
// the call by the data asked for; an ordered call takes its place from the shared pointer after
// an allgather of every member's size, in rank order (as ROMIO's ordered calls do with a token).
#include <cstring>
#include <memory>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/io/file_access.hpp"
#include "libsimmpi/io/file_collective.hpp"
#include "libsimmpi/io/file_view.hpp"
#include "libsimmpi/io/host_data.hpp"
#include "libsimmpi/io/two_phase.hpp"
#include "libsimmpi/p2p/transport.hpp"

using namespace simmpi::mpi;
using simmpi::hardware::IoDirection;

namespace {

enum class Form : std::uint8_t { Blocking, Nonblocking, SplitBegin };

// What the collective body needs once the call has returned (nonblocking forms): all by value.
struct Job {
  File* file;
  int me;
  int rank;
  std::uint32_t seq;
  CollectiveAccess* access;
  AccessArgs args;
  TypeRef type;
  bool ordered;
  MPI_Offset position;  // in etypes; an ordered access's is known only in the body
};

// The member's segments of the access, and a write's data into the host file.
void prepare(World& w, Job& j) {
  FileMember& m = j.file->member(j.me);
  std::uint64_t bytes = j.type->size * static_cast<std::uint64_t>(j.args.count);
  auto& segs = j.access->segments[static_cast<std::size_t>(j.me)];
  segs.clear();
  view_segments(m.view, static_cast<std::uint64_t>(j.position) * m.view.etype->size, bytes, segs);
  if (j.args.dir == IoDirection::Write)
    host_write(w, j.file->fd, TypedBuffer{j.rank, j.args.buf, j.args.count, j.type.get()}, segs,
               bytes, j.file->path());
}

// An ordered access's position: the shared pointer when the first member entered, plus the
// sizes of the members before it; the pointer then moves past them all (every member stores the
// same value).
void take_ordered_position(CollContext& cc, Job& j) {
  const int n = j.file->size();
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(n));
  const std::uint64_t etype = j.file->member(j.me).view.etype->size;
  sizes[static_cast<std::size_t>(j.me)] =
      static_cast<std::int64_t>(j.type->size * static_cast<std::uint64_t>(j.args.count) / etype);
  run_allgatherv(cc, Coll::Allgather, reinterpret_cast<char*>(sizes.data()),
                 uniform(n, sizeof(std::int64_t)), strided(n, sizeof(std::int64_t)));
  MPI_Offset before = 0, total = 0;
  for (int i = 0; i < n; ++i) {
    if (i == j.me) before = total;
    total += sizes[static_cast<std::size_t>(i)];
  }
  j.position = j.access->shared_base + before;
  j.file->shared_position = j.access->shared_base + total;
}

// The collective part of the access; returns the bytes moved.
std::uint64_t run_job(CollContext& cc, Job j) {
  World& w = cc.world();
  if (j.ordered) take_ordered_position(cc, j);
  prepare(w, j);
  std::uint64_t bytes = j.type->size * static_cast<std::uint64_t>(j.args.count);
  std::uint64_t moved = bytes;
  two_phase(cc, *j.file, j.me, *j.access, j.args.dir, [&] {
    if (j.args.dir != IoDirection::Read) return;
    int err = 0;
    moved = host_read(w, j.file->fd, TypedBuffer{j.rank, j.args.buf, j.args.count, j.type.get()},
                      j.access->segments[static_cast<std::size_t>(j.me)], bytes, &err);
  });
  if (--j.access->left == 0) j.file->collectives.erase(j.seq);
  return moved;
}

int collective(const char* name, MPI_File fh, AccessArgs a, bool ordered, Form form,
               MPI_Status* status, MPI_Request* request) {
  ApiCall call(name);
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (form == Form::Nonblocking && !request)
    return file_fail(call, r, MPI_ERR_REQUEST, "request is NULL");
  const Datatype* type = nullptr;
  err = check_access(call, r, a, &type);
  if (err != MPI_SUCCESS) return err;
  FileMember& m = r.member();
  if (form == Form::SplitBegin && m.split.begun_by)
    return file_fail(call, r, MPI_ERR_OTHER,
                     "the split collective %s is still active (MPI-3.1 13.4.5 allows one at a "
                     "time per file handle)",
                     m.split.begun_by);
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, name, -1, &seq);
  if (err != MPI_SUCCESS) return err;
  File& f = *r.file;
  auto& slot = f.collectives[seq];
  if (!slot) {
    slot = std::make_unique<CollectiveAccess>();
    slot->segments.resize(static_cast<std::size_t>(f.size()));
    slot->left = f.size();
    slot->shared_base = f.shared_position;
  }
  Job j{&f, r.me, call.rank, seq, slot.get(), a, type, ordered, 0};
  const std::uint64_t etype = m.view.etype->size;
  const auto asked =
      static_cast<MPI_Offset>(type->size * static_cast<std::uint64_t>(a.count) / etype);
  if (a.where == FilePointer::Explicit) {
    j.position = a.offset;
  } else if (a.where == FilePointer::Individual) {
    j.position = m.position;
    m.position += asked;
  }
  if (form == Form::Blocking) {
    CollContext cc(call.world, f.comm(), seq);
    std::uint64_t moved = run_job(cc, j);
    if (status != MPI_STATUS_IGNORE) {
      std::memset(status, 0, sizeof *status);
      status->MPI_SOURCE = MPI_ANY_SOURCE;
      status->MPI_TAG = MPI_ANY_TAG;
      status->simmpi_bytes = static_cast<long long>(moved);
    }
    return MPI_SUCCESS;
  }
  MPI_Request handle = MPI_REQUEST_NULL;
  World* w = &call.world;
  launch_nonblocking(call, f.comm(), &handle, [w, j](Request& q) {
    CollContext cc(*w, j.file->comm(), j.seq);
    q.status.simmpi_bytes = static_cast<long long>(run_job(cc, j));
  });
  if (form == Form::Nonblocking) {
    *request = handle;
  } else {
    m.split.begun_by = name;
    m.split.request = call.world.requests().find(handle);
    m.split.buf = a.buf;
  }
  return MPI_SUCCESS;
}

// The _end of a split collective begun by `begin`.
int split_end(const char* name, const char* begin, MPI_File fh, const void* buf,
              MPI_Status* status) {
  ApiCall call(name);
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  SplitCollective& s = r.member().split;
  if (!s.begun_by || std::strcmp(s.begun_by, begin) != 0)
    return file_fail(call, r, MPI_ERR_OTHER, "no %s is active on this file handle%s%s", begin,
                     s.begun_by ? "; the active split collective is " : "",
                     s.begun_by ? s.begun_by : "");
  if (buf != s.buf)
    return file_fail(call, r, MPI_ERR_BUFFER, "buf=%p is not the buffer %s was given (%p)", buf,
                     begin, s.buf);
  Request* q = s.request;
  s = SplitCollective{};
  finish_access(call, q, status);
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

constexpr IoDirection R = IoDirection::Read;
constexpr IoDirection W = IoDirection::Write;

}  // namespace

extern "C" {

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count,
                         MPI_Datatype datatype, MPI_Status* status) {
  return collective("MPI_File_read_at_all", fh, at(offset, buf, count, datatype, R), false,
                    Form::Blocking, status, nullptr);
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                          MPI_Datatype datatype, MPI_Status* status) {
  return collective("MPI_File_write_at_all", fh, at(offset, buf, count, datatype, W), false,
                    Form::Blocking, status, nullptr);
}
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count,
                          MPI_Datatype datatype, MPI_Request* request) {
  return collective("MPI_File_iread_at_all", fh, at(offset, buf, count, datatype, R), false,
                    Form::Nonblocking, nullptr, request);
}
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                           MPI_Datatype datatype, MPI_Request* request) {
  return collective("MPI_File_iwrite_at_all", fh, at(offset, buf, count, datatype, W), false,
                    Form::Nonblocking, nullptr, request);
}
int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  return collective("MPI_File_read_all", fh, individual(buf, count, datatype, R), false,
                    Form::Blocking, status, nullptr);
}
int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                       MPI_Status* status) {
  return collective("MPI_File_write_all", fh, individual(buf, count, datatype, W), false,
                    Form::Blocking, status, nullptr);
}
int MPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype,
                       MPI_Request* request) {
  return collective("MPI_File_iread_all", fh, individual(buf, count, datatype, R), false,
                    Form::Nonblocking, nullptr, request);
}
int MPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                        MPI_Request* request) {
  return collective("MPI_File_iwrite_all", fh, individual(buf, count, datatype, W), false,
                    Form::Nonblocking, nullptr, request);
}
int MPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  return collective("MPI_File_read_ordered", fh, shared(buf, count, datatype, R), true,
                    Form::Blocking, status, nullptr);
}
int MPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype,
                           MPI_Status* status) {
  return collective("MPI_File_write_ordered", fh, shared(buf, count, datatype, W), true,
                    Form::Blocking, status, nullptr);
}

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count,
                               MPI_Datatype datatype) {
  return collective("MPI_File_read_at_all_begin", fh, at(offset, buf, count, datatype, R), false,
                    Form::SplitBegin, nullptr, nullptr);
}
int MPI_File_read_at_all_end(MPI_File fh, void* buf, MPI_Status* status) {
  return split_end("MPI_File_read_at_all_end", "MPI_File_read_at_all_begin", fh, buf, status);
}
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                                MPI_Datatype datatype) {
  return collective("MPI_File_write_at_all_begin", fh, at(offset, buf, count, datatype, W), false,
                    Form::SplitBegin, nullptr, nullptr);
}
int MPI_File_write_at_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
  return split_end("MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", fh, buf, status);
}
int MPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return collective("MPI_File_read_all_begin", fh, individual(buf, count, datatype, R), false,
                    Form::SplitBegin, nullptr, nullptr);
}
int MPI_File_read_all_end(MPI_File fh, void* buf, MPI_Status* status) {
  return split_end("MPI_File_read_all_end", "MPI_File_read_all_begin", fh, buf, status);
}
int MPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return collective("MPI_File_write_all_begin", fh, individual(buf, count, datatype, W), false,
                    Form::SplitBegin, nullptr, nullptr);
}
int MPI_File_write_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
  return split_end("MPI_File_write_all_end", "MPI_File_write_all_begin", fh, buf, status);
}
int MPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return collective("MPI_File_read_ordered_begin", fh, shared(buf, count, datatype, R), true,
                    Form::SplitBegin, nullptr, nullptr);
}
int MPI_File_read_ordered_end(MPI_File fh, void* buf, MPI_Status* status) {
  return split_end("MPI_File_read_ordered_end", "MPI_File_read_ordered_begin", fh, buf, status);
}
int MPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return collective("MPI_File_write_ordered_begin", fh, shared(buf, count, datatype, W), true,
                    Form::SplitBegin, nullptr, nullptr);
}
int MPI_File_write_ordered_end(MPI_File fh, const void* buf, MPI_Status* status) {
  return split_end("MPI_File_write_ordered_end", "MPI_File_write_ordered_begin", fh, buf, status);
}

}  // extern "C"
