// SPDX-License-Identifier: Apache-2.0
// What every file entry point shares: finding the caller's file and raising errors under the
// file's error handler (MPI-3.1 13.7: MPI_ERRORS_RETURN unless set), or, for calls without a
// file (MPI_File_open, MPI_File_delete), under the default handler set on MPI_FILE_NULL.
// Messages name the file's path; ApiCall adds the time, the rank and the call.
#pragma once

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/io/file.hpp"

namespace simmpi::mpi {

// The caller's view of a file: the file and the caller's rank in it.
struct FileRef {
  File* file = nullptr;
  int me = -1;
  FileMember& member() const { return file->member(me); }
  explicit operator bool() const { return file != nullptr; }
};

// The file `h` of the caller, or an empty FileRef after raising MPI_ERR_FILE (under the default
// file error handler) into *err.
FileRef find_file(ApiCall& call, MPI_File h, int* err);

// Raises `cls` under the caller's handler of `file`: "<detail> (file "path")".
int file_fail(ApiCall& call, const FileRef& file, int cls, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
// Raises `cls` under the default file error handler (MPI_FILE_NULL's).
int file_null_fail(ApiCall& call, int cls, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

}  // namespace simmpi::mpi
