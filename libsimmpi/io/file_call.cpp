// SPDX-License-Identifier: Apache-2.0
// File lookup and errors.
#include "libsimmpi/io/file_call.hpp"

#include <cstdarg>
#include <cstdio>

namespace simmpi::mpi {
namespace {

int raise_default(ApiCall& call, int cls, const char* detail) {
  Files& files = Files::get();
  return call.raise(files.default_errhandler(call.rank), files.default_errhandler_fn(call.rank),
                    MPI_FILE_NULL, cls, detail);
}

}  // namespace

FileRef find_file(ApiCall& call, MPI_File h, int* err) {
  File* f = Files::get().find(h);
  int me = f ? f->comm().comm_rank(call.rank) : -1;
  if (f && me >= 0 && !f->member(me).closed) return FileRef{f, me};
  if (h == MPI_FILE_NULL)
    *err = file_null_fail(call, MPI_ERR_FILE, "fh is MPI_FILE_NULL");
  else if (me >= 0)
    *err = file_null_fail(call, MPI_ERR_FILE, "fh=0x%08x was closed by this rank",
                          static_cast<unsigned>(h));
  else
    *err = file_null_fail(call, MPI_ERR_FILE, "fh=0x%08x is not a file this rank opened",
                          static_cast<unsigned>(h));
  return FileRef{};
}

int file_fail(ApiCall& call, const FileRef& file, int cls, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char detail[1024];
  std::vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  char full[2400];
  std::snprintf(full, sizeof full, "%s (file \"%s\")", detail, file.file->path().c_str());
  const FileMember& m = file.member();
  return call.raise(m.errhandler, m.errhandler_fn, file.file->handle(), cls, full);
}

int file_null_fail(ApiCall& call, int cls, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char detail[2400];
  std::vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  return raise_default(call, cls, detail);
}

}  // namespace simmpi::mpi
