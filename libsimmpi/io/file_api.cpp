// SPDX-License-Identifier: Apache-2.0
// Opening, closing and managing files (MPI-3.1 13.2): MPI_File_open, _close, _delete,
// _set_size, _preallocate, _get_size, _get_amode, _get_group, _set_info, _get_info, _sync and
// the atomicity mode. Opening is collective: the members duplicate the communicator (as ROMIO
// does), the first to arrive opens the host file for all, and each then opens it on the
// metadata server (one storage metadata operation each, so the opens of many ranks queue
// there); a close is a barrier and a metadata operation each.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hardware/platform.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/group.hpp"
#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/info/info_objects.hpp"
#include "libsimmpi/io/file_collective.hpp"
#include "libsimmpi/io/file_timing.hpp"
#include "libsimmpi/io/file_view.hpp"
#include "libsimmpi/io/host_data.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;

namespace {

// The error class MPI-3.1 13.7 names for a host refusal.
int io_error_class(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
      return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
      return MPI_ERR_ACCESS;
    case EROFS:
      return MPI_ERR_READ_ONLY;
    case ENOSPC:
      return MPI_ERR_NO_SPACE;
    case EDQUOT:
      return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case EISDIR:
    case EINVAL:
      return MPI_ERR_BAD_FILE;
    default:
      return MPI_ERR_IO;
  }
}

// What is wrong with an access mode, or nullptr (MPI-3.1 13.2.1).
const char* amode_problem(int amode) {
  const int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |
                    MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL |
                    MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
  if (amode & ~known) return "it has bits that are no MPI_MODE_* constant";
  int access = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_WRONLY ? 1 : 0) +
               (amode & MPI_MODE_RDWR ? 1 : 0);
  if (access != 1) return "it must have exactly one of MPI_MODE_RDONLY, _WRONLY and _RDWR";
  if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    return "MPI_MODE_RDONLY cannot go with MPI_MODE_CREATE or MPI_MODE_EXCL";
  if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
    return "MPI_MODE_RDWR cannot go with MPI_MODE_SEQUENTIAL";
  return nullptr;
}

// A hint's value as a positive integer, 0 when absent or not one.
std::uint64_t hint_number(const Info* info, const char* key) {
  if (!info) return 0;
  const auto* e = info->find(key);
  if (!e) return 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(e->second.c_str(), &end, 10);
  return end && *end == '\0' ? v : 0;
}

// The host file's identity, which keys the file system's layout of it.
std::string layout_key(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return {};
  return strprintf("%lu:%lu", static_cast<unsigned long>(st.st_dev),
                   static_cast<unsigned long>(st.st_ino));
}

// ROMIO's collective buffering: one aggregator per node (the first member there, in rank order)
// unless the cb_nodes hint asks for fewer; cb_buffer_size bytes per round, 16 MiB by default.
void choose_aggregators(World& w, File& f, const Info* info) {
  std::uint64_t wanted = hint_number(info, "cb_nodes");
  std::vector<bool> taken(static_cast<std::size_t>(w.platform().node_count()));
  f.aggregators.clear();
  for (int i = 0; i < f.size(); ++i) {
    auto node = static_cast<std::size_t>(w.platform().node_of(f.comm().world_rank(i)));
    if (taken[node]) continue;
    taken[node] = true;
    if (wanted == 0 || f.aggregators.size() < wanted) f.aggregators.push_back(i);
  }
  std::uint64_t cb = hint_number(info, "cb_buffer_size");
  f.cb_buffer_bytes = cb > 0 ? cb : 16u << 20;
}

// The hints a file reports (MPI_File_get_info): its striping and ROMIO's collective buffering
// settings as taken at the open.
void record_hints(File& f, const Info* info) {
  f.hints.clear();
  f.hints.emplace_back("striping_factor", std::to_string(f.striping.count));
  f.hints.emplace_back("striping_unit", std::to_string(f.striping.unit_bytes));
  f.hints.emplace_back("cb_nodes", std::to_string(f.aggregators.size()));
  f.hints.emplace_back("cb_buffer_size", std::to_string(f.cb_buffer_bytes));
  if (!info) return;
  for (const auto& [key, value] : info->entries)
    if (key != "striping_factor" && key != "striping_unit" && key != "cb_nodes" &&
        key != "cb_buffer_size")
      f.hints.emplace_back(key, value);
}

// The first member to arrive opens the host file for all of them.
void open_host_file(World& w, File& f, int amode, const Info* info) {
  int flags = amode & MPI_MODE_RDONLY ? O_RDONLY : amode & MPI_MODE_WRONLY ? O_WRONLY : O_RDWR;
  if (amode & MPI_MODE_CREATE) flags |= O_CREAT;
  if (amode & MPI_MODE_EXCL) flags |= O_EXCL;
  f.amode = amode;
  f.fd = ::open(f.path().c_str(), flags | O_CLOEXEC, 0666);
  if (f.fd < 0) {
    f.open_error = io_error_class(errno);
    f.open_detail = std::strerror(errno);
    return;
  }
  Files& files = Files::get();
  std::string key = layout_key(f.fd);
  if (const simmpi::hardware::Striping* s = files.layout(key)) {
    f.striping = *s;  // a file keeps the striping it was made with
  } else {
    f.striping = w.platform().storage().stripe_new_file(
        static_cast<int>(hint_number(info, "striping_factor")), hint_number(info, "striping_unit"));
    files.set_layout(key, f.striping);
  }
  choose_aggregators(w, f, info);
  record_hints(f, info);
}

// The member's part of a failed open: the error, and the file forgotten by the last member to
// be done with it (the open failed for all, or this member's arguments differ from the others').
int fail_open(ApiCall& call, File& f, Communicator& priv, int cls, const std::string& what) {
  const std::string path = f.path();
  if (f.leave(priv.comm_rank(call.rank))) Files::get().remove(&f);
  leave_comm(call, priv);
  return file_null_fail(call, cls, "cannot open \"%s\": %s", path.c_str(), what.c_str());
}

int open_file(ApiCall& call, MPI_Comm comm, const char* filename, int amode, MPI_Info info,
              MPI_File* fh) {
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (c->is_inter())
    return file_null_fail(call, MPI_ERR_COMM, "%s is an intercommunicator", c->name().c_str());
  if (!filename || !fh) return file_null_fail(call, MPI_ERR_ARG, "filename or fh is NULL");
  if (const char* why = amode_problem(amode))
    return file_null_fail(call, MPI_ERR_AMODE, "amode=%d for \"%s\": %s", amode, filename, why);
  const Info* hints = info == MPI_INFO_NULL ? nullptr : InfoObjects::get().find(call.rank, info);
  if (info != MPI_INFO_NULL && !hints)
    return file_null_fail(call, MPI_ERR_INFO, "info=0x%08x is not an info of this rank",
                          static_cast<unsigned>(info));
  int err = check_collective_call(call, comm, *c, call.name);
  MPI_Comm pc = MPI_COMM_NULL;
  if (err == MPI_SUCCESS) err = dup_comm(call, *c, &pc);
  if (err != MPI_SUCCESS) return err;
  Communicator& priv = *call.world.find_comm(pc, call.rank);
  bool first = false;
  File& f = Files::get().take(priv, filename, &first);
  if (first) open_host_file(call.world, f, amode, hints);
  wait_metadata(call);
  if (f.path() != filename)
    return fail_open(call, f, priv, MPI_ERR_NOT_SAME,
                     strprintf("another member opens \"%s\"", f.path().c_str()));
  if (f.amode != amode)
    return fail_open(call, f, priv, MPI_ERR_AMODE,
                     strprintf("amode=%d differs from another member's %d", amode, f.amode));
  if (f.open_error != MPI_SUCCESS) return fail_open(call, f, priv, f.open_error, f.open_detail);
  const int me = priv.comm_rank(call.rank);
  FileMember& m = f.member(me);
  m.view.etype = find_datatype(MPI_BYTE, call.rank);
  m.view.filetype = m.view.etype;
  m.errhandler = Files::get().default_errhandler(call.rank);
  m.errhandler_fn = Files::get().default_errhandler_fn(call.rank);
  if (amode & MPI_MODE_APPEND) {
    std::int64_t size = host_size(f.fd);
    m.position = size > 0 ? size : 0;
    f.shared_position = m.position;
  }
  priv.set_name(strprintf("file \"%s\" of %s", f.path().c_str(), c->name().c_str()));
  *fh = f.handle();
  return MPI_SUCCESS;
}

// MPI_File_set_size and MPI_File_preallocate: the first member of the file resizes it on the
// metadata server, then all meet in a barrier (as ROMIO's rank 0 does). Growing is sparse.
int resize(const char* name, MPI_File fh, MPI_Offset size, bool only_grow) {
  ApiCall call(name);
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (size < 0) return file_fail(call, r, MPI_ERR_ARG, "size=%lld is negative", size);
  if (r.file->amode & MPI_MODE_RDONLY)
    return file_fail(call, r, MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
  if (r.file->amode & MPI_MODE_SEQUENTIAL)
    return file_fail(call, r, MPI_ERR_UNSUPPORTED_OPERATION,
                     "the file was opened MPI_MODE_SEQUENTIAL");
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, name, size, &seq);
  if (err != MPI_SUCCESS) return err;
  if (r.me == 0) {
    std::int64_t now = host_size(r.file->fd);
    if ((!only_grow || now < size) && ftruncate(r.file->fd, size) != 0)
      return file_fail(call, r, io_error_class(errno), "cannot resize to %lld bytes: %s", size,
                       std::strerror(errno));
    wait_metadata(call);
  }
  file_barrier(call, r, seq);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  ApiCall call("MPI_File_open");
  return open_file(call, comm, filename, amode, info, fh);
}

// Collective: each member's close on the metadata server, then a barrier; the first member out
// of it deletes the file under MPI_MODE_DELETE_ON_CLOSE (before any member can run on), and the
// last one to leave closes the host file.
int MPI_File_close(MPI_File* fh) {
  ApiCall call("MPI_File_close");
  if (!fh) return file_null_fail(call, MPI_ERR_ARG, "fh is NULL");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, *fh, &err);
  if (!r) return err;
  if (r.member().split.begun_by)
    return file_fail(call, r, MPI_ERR_OTHER, "the split collective %s was not ended",
                     r.member().split.begun_by);
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, "MPI_File_close", -1, &seq);
  if (err != MPI_SUCCESS) return err;
  wait_metadata(call);
  file_barrier(call, r, seq);
  File* f = r.file;
  if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && !f->deleted) {
    f->deleted = true;
    Files::get().forget_layout(layout_key(f->fd));
    ::unlink(f->path().c_str());
  }
  Communicator& priv = f->comm();
  if (f->leave(r.me)) Files::get().remove(f);
  leave_comm(call, priv);
  *fh = MPI_FILE_NULL;
  return MPI_SUCCESS;
}

int MPI_File_delete(const char* filename, MPI_Info info) {
  ApiCall call("MPI_File_delete");
  (void)info;  // no hint changes how a file is deleted
  if (!filename) return file_null_fail(call, MPI_ERR_ARG, "filename is NULL");
  wait_metadata(call);
  int fd = ::open(filename, O_RDONLY | O_CLOEXEC);
  std::string key = fd >= 0 ? layout_key(fd) : std::string();
  if (fd >= 0) ::close(fd);
  if (::unlink(filename) != 0)
    return file_null_fail(call, io_error_class(errno), "cannot delete \"%s\": %s", filename,
                          std::strerror(errno));
  Files::get().forget_layout(key);
  return MPI_SUCCESS;
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  return resize("MPI_File_set_size", fh, size, false);
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  return resize("MPI_File_preallocate", fh, size, true);
}

int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  ApiCall call("MPI_File_get_size");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!size) return file_fail(call, r, MPI_ERR_ARG, "size is NULL");
  std::int64_t n = host_size(r.file->fd);
  if (n < 0) return file_fail(call, r, MPI_ERR_IO, "fstat failed: %s", std::strerror(errno));
  *size = n;
  return MPI_SUCCESS;
}

int MPI_File_get_amode(MPI_File fh, int* amode) {
  ApiCall call("MPI_File_get_amode");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!amode) return file_fail(call, r, MPI_ERR_ARG, "amode is NULL");
  *amode = r.file->amode;
  return MPI_SUCCESS;
}

int MPI_File_get_group(MPI_File fh, MPI_Group* group) {
  ApiCall call("MPI_File_get_group");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!group) return file_fail(call, r, MPI_ERR_ARG, "group is NULL");
  *group = new_group_handle(call, group_of(r.file->comm()));
  return MPI_SUCCESS;
}

// Collective. The striping hints are fixed once the file exists (Lustre sets a file's layout at
// its creation; ROMIO ignores them later too); the others are recorded.
int MPI_File_set_info(MPI_File fh, MPI_Info info) {
  ApiCall call("MPI_File_set_info");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  const Info* in = info == MPI_INFO_NULL ? nullptr : InfoObjects::get().find(call.rank, info);
  if (info != MPI_INFO_NULL && !in)
    return file_fail(call, r, MPI_ERR_INFO, "info=0x%08x is not an info of this rank",
                     static_cast<unsigned>(info));
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, "MPI_File_set_info", -1, &seq);
  if (err != MPI_SUCCESS) return err;
  if (in)
    for (const auto& [key, value] : in->entries) {
      if (key == "striping_factor" || key == "striping_unit") continue;
      bool found = false;
      for (auto& h : r.file->hints)
        if (h.first == key) {
          h.second = value;
          found = true;
        }
      if (!found) r.file->hints.emplace_back(key, value);
    }
  return MPI_SUCCESS;
}

int MPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  ApiCall call("MPI_File_get_info");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!info_used) return file_fail(call, r, MPI_ERR_ARG, "info_used is NULL");
  Info copy;
  for (const auto& [key, value] : r.file->hints) copy.set(key, value);
  *info_used = InfoObjects::get().add(call.rank, std::move(copy));
  return MPI_SUCCESS;
}

// Collective: the data is on the host file already; the storage model's writes complete only
// once stored (its replies come after the OST's commit), so what a sync costs is one request to
// the metadata server per member.
int MPI_File_sync(MPI_File fh) {
  ApiCall call("MPI_File_sync");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (r.file->amode & MPI_MODE_RDONLY)
    return file_fail(call, r, MPI_ERR_ACCESS, "the file was opened MPI_MODE_RDONLY");
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, "MPI_File_sync", -1, &seq);
  if (err != MPI_SUCCESS) return err;
  wait_metadata(call);
  return MPI_SUCCESS;
}

// Collective. Every access is applied to the host file whole at its call, one after the other,
// so the atomic mode's guarantee (MPI-3.1 13.6.1) holds either way; the flag is kept for
// MPI_File_get_atomicity.
int MPI_File_set_atomicity(MPI_File fh, int flag) {
  ApiCall call("MPI_File_set_atomicity");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, "MPI_File_set_atomicity", flag ? 1 : 0, &seq);
  if (err != MPI_SUCCESS) return err;
  r.file->atomic = flag != 0;
  return MPI_SUCCESS;
}

int MPI_File_get_atomicity(MPI_File fh, int* flag) {
  ApiCall call("MPI_File_get_atomicity");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!flag) return file_fail(call, r, MPI_ERR_ARG, "flag is NULL");
  *flag = r.file->atomic ? 1 : 0;
  return MPI_SUCCESS;
}

}  // extern "C"
