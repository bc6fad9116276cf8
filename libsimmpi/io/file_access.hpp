// SPDX-License-Identifier: Apache-2.0
// One process's access to a file, shared by every independent read and write: its checks (the
// access mode, the datatype against the view's etype), its data (moved at the call, host_data),
// its file pointer (advanced at the call, so later calls of the process see it moved), and its
// storage requests (file_timing), which the returned request completes with.
#pragma once

#include <cstdint>
#include <vector>

#include "libsimmpi/io/file_call.hpp"
#include "libsimmpi/io/file_timing.hpp"

namespace simmpi::mpi {

// Where an access starts: at an explicit offset, or at a file pointer.
enum class FilePointer : std::uint8_t { Explicit, Individual, Shared };

struct AccessArgs {
  FilePointer where = FilePointer::Explicit;
  MPI_Offset offset = 0;  // Explicit: in etypes of the view
  void* buf = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  hardware::IoDirection dir = hardware::IoDirection::Read;
};

// The checks of an access on `r`: MPI_SUCCESS, or the error raised on the file. *type receives
// the resolved datatype.
int check_access(ApiCall& call, const FileRef& r, const AccessArgs& a, const Datatype** type);
// The data and the pointer of a checked access starting at etype `position`: moves the data to or
// from the host file, fills `segments` and returns the bytes moved (a read stops at the end of
// the file), or sets *err to the error raised.
std::uint64_t move_data(ApiCall& call, const FileRef& r, const AccessArgs& a, const Datatype& type,
                        MPI_Offset position, std::vector<FileSegment>& segments, int* err);
// A whole independent access: checks, data, pointer, and a request completed by its storage
// requests (status: the bytes moved). nullptr after an error raised into *err.
Request* start_access(ApiCall& call, const FileRef& r, const AccessArgs& a, int* err);
// Blocks until `q` completes, then hands its status out and releases it.
void finish_access(ApiCall& call, Request* q, MPI_Status* status);

}  // namespace simmpi::mpi
