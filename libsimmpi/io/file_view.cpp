// SPDX-License-Identifier: Apache-2.0
// Views as segments of the file.
#include "libsimmpi/io/file_view.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

void view_segments(const FileView& v, std::uint64_t start, std::uint64_t bytes,
                   std::vector<FileSegment>& out) {
  if (bytes == 0) return;
  const Datatype& ft = *v.filetype;
  const std::uint64_t tile_bytes = ft.size;
  const std::uint64_t tile = start / tile_bytes, skip = start % tile_bytes;
  const auto tiles = static_cast<std::int64_t>((skip + bytes + tile_bytes - 1) / tile_bytes);
  std::intptr_t base = static_cast<std::intptr_t>(v.disp) +
                       static_cast<std::intptr_t>(tile) * static_cast<std::intptr_t>(ft.extent);
  std::uint64_t seen = 0, packed = 0;
  ft.map.for_each_block(
      base, tiles, ft.extent, skip + bytes, [&](std::intptr_t at, std::uint64_t len) {
        if (seen + len <= skip) {
          seen += len;
          return;
        }
        std::uint64_t cut = seen < skip ? skip - seen : 0;
        seen += len;
        std::int64_t off = at + static_cast<std::int64_t>(cut);
        std::uint64_t n = len - cut;
        if (!out.empty() && out.back().offset + static_cast<std::int64_t>(out.back().len) == off &&
            out.back().packed + out.back().len == packed)
          out.back().len += n;
        else
          out.push_back({packed, off, n});
        packed += n;
      });
}

std::int64_t view_byte_offset(const FileView& v, MPI_Offset pos) {
  std::vector<FileSegment> one;
  view_segments(v, static_cast<std::uint64_t>(pos) * v.etype->size, 1, one);
  return one.empty() ? v.disp : one.front().offset;
}

MPI_Offset view_etypes_before(const FileView& v, std::int64_t file_bytes) {
  const Datatype& ft = *v.filetype;
  if (file_bytes <= v.disp) return 0;
  std::int64_t span = file_bytes - v.disp;
  std::int64_t tiles = ft.extent > 0 ? span / ft.extent : 0;
  std::uint64_t data = static_cast<std::uint64_t>(tiles) * ft.size;
  // The data of the next tile that lies before the end.
  std::intptr_t base = static_cast<std::intptr_t>(v.disp) + tiles * ft.extent;
  ft.map.for_each_block(base, 1, ft.extent, ft.size, [&](std::intptr_t at, std::uint64_t len) {
    if (at >= file_bytes) return;
    std::int64_t end = at + static_cast<std::int64_t>(len);
    data += static_cast<std::uint64_t>((end < file_bytes ? end : file_bytes) - at);
  });
  return static_cast<MPI_Offset>(data / v.etype->size);
}

std::string view_problem(const Datatype& etype, const Datatype& filetype) {
  if (etype.size == 0) return strprintf("the etype %s has no data", etype.name);
  if (filetype.size == 0 || filetype.size % etype.size != 0)
    return strprintf(
        "the filetype %s has %zu bytes of data, not a nonzero multiple of the etype "
        "%s's %zu",
        filetype.name, filetype.size, etype.name, etype.size);
  std::int64_t end = 0;
  std::string problem;
  filetype.map.for_each_block(0, 1, filetype.extent, filetype.size,
                              [&](std::intptr_t at, std::uint64_t len) {
                                if (!problem.empty()) return;
                                if (at < end || at < 0)
                                  problem = strprintf(
                                      "the filetype %s has a block at displacement %ld after "
                                      "data up to %ld: its displacements must be nonnegative "
                                      "and monotonically nondecreasing",
                                      filetype.name, static_cast<long>(at), static_cast<long>(end));
                                end = at + static_cast<std::int64_t>(len);
                              });
  if (problem.empty() && filetype.lb < 0)
    problem = strprintf("the filetype %s has a negative lower bound (%ld)", filetype.name,
                        static_cast<long>(filetype.lb));
  return problem;
}

}  // namespace simmpi::mpi
