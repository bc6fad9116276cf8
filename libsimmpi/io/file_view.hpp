// SPDX-License-Identifier: Apache-2.0
// File views (MPI-3.1 13.3): which bytes of the file a process's data stream goes to. Data byte
// b of the view (b = position x etype size + bytes into the access) lies in tile
// t = b / size(filetype), at byte b mod size(filetype) of the filetype's type map, the tile
// starting at disp + t x extent(filetype).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "libsimmpi/io/file.hpp"

namespace simmpi::mpi {

// Appends the segments data bytes [start, start + bytes) of `v` occupy, in stream order, adjacent
// ones merged (a contiguous view gives one).
void view_segments(const FileView& v, std::uint64_t start, std::uint64_t bytes,
                   std::vector<FileSegment>& out);
// The file byte of etype position `pos` of the view (MPI_File_get_byte_offset).
std::int64_t view_byte_offset(const FileView& v, MPI_Offset pos);
// The number of whole etypes of the view that lie before byte `file_bytes` of the file: where
// MPI_SEEK_END counts from.
MPI_Offset view_etypes_before(const FileView& v, std::int64_t file_bytes);
// Whether `filetype` fits `etype` as a view needs: its size a nonzero multiple of the etype's,
// and its type map's displacements nonnegative and nondecreasing (MPI-3.1 13.3). Empty when it
// does; else the reason.
std::string view_problem(const Datatype& etype, const Datatype& filetype);

}  // namespace simmpi::mpi
