// SPDX-License-Identifier: Apache-2.0
// pread and pwrite of typed buffers against file segments.
#include "libsimmpi/io/host_data.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "runtime/core/error.hpp"
#include "runtime/fold/fold_memory.hpp"

namespace simmpi::mpi {
namespace {

// The unfolded memory blocks of the first `bytes` packed bytes of `b`, in packed order.
struct MemPiece {
  std::uint64_t packed;
  std::intptr_t addr;
  std::uint64_t len;
};
std::vector<MemPiece> memory_pieces(const TypedBuffer& b, std::uint64_t bytes) {
  std::vector<MemPiece> pieces;
  const runtime::FoldMemory& fold = runtime::FoldMemory::instance();
  std::uint64_t packed = 0;
  b.type->map.for_each_block(
      reinterpret_cast<std::intptr_t>(b.buf), b.count, b.type->extent, bytes,
      [&](std::intptr_t block, std::uint64_t len) {
        if (fold.active())
          fold.for_each_unfolded(block, len, [&](std::intptr_t at, std::uint64_t n) {
            pieces.push_back({packed + static_cast<std::uint64_t>(at - block), at, n});
          });
        else
          pieces.push_back({packed, block, len});
        packed += len;
      });
  return pieces;
}

// Calls f(host pointer, file offset, len) for each part where a memory piece meets a segment,
// in packed order, over the first `bytes` packed bytes; stops when f returns false.
template <class F>
void for_each_overlap(World& w, const TypedBuffer& mem, const std::vector<FileSegment>& segments,
                      std::uint64_t bytes, F&& f) {
  RankMemory at(w, mem.rank);
  std::vector<MemPiece> pieces = memory_pieces(mem, bytes);
  std::size_t s = 0;
  for (const MemPiece& p : pieces) {
    std::uint64_t lo = p.packed, hi = p.packed + p.len;
    while (s < segments.size() && segments[s].packed + segments[s].len <= lo) ++s;
    for (std::size_t j = s; j < segments.size() && segments[j].packed < hi; ++j) {
      const FileSegment& g = segments[j];
      std::uint64_t a = std::max(lo, g.packed), b = std::min(hi, g.packed + g.len);
      if (!f(at.at(p.addr + static_cast<std::intptr_t>(a - p.packed)),
             g.offset + static_cast<std::int64_t>(a - g.packed), b - a))
        return;
    }
  }
}

}  // namespace

void charge_host_bytes(World& w, std::uint64_t n, const std::string& path) {
  Files& files = Files::get();
  std::uint64_t& written = files.host_bytes_written;
  const std::uint64_t cap = files.max_host_bytes();
  if (written + n > cap)
    fatal(1, strprintf("[t=%s r%d] writing %llu more bytes to \"%s\" would put %llu bytes on the "
                       "host's disk, over io.max_host_bytes = %llu; raise it (--set "
                       "io.max_host_bytes=...) or fold the buffers written "
                       "(runtime.fold_threshold)",
                       w.scheduler().local_now().to_string().c_str(), w.current_rank(),
                       static_cast<unsigned long long>(n), path.c_str(),
                       static_cast<unsigned long long>(written + n),
                       static_cast<unsigned long long>(cap)));
  written += n;
}

std::int64_t host_size(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return -1;
  return st.st_size;
}

int host_write(World& w, int fd, const TypedBuffer& mem, const std::vector<FileSegment>& segments,
               std::uint64_t bytes, const std::string& path) {
  int err = 0;
  for_each_overlap(w, mem, segments, bytes, [&](char* p, std::int64_t off, std::uint64_t n) {
    charge_host_bytes(w, n, path);
    while (n > 0) {
      ssize_t k = pwrite(fd, p, n, off);
      if (k < 0) {
        if (errno == EINTR) continue;
        err = errno;
        return false;
      }
      p += k;
      off += k;
      n -= static_cast<std::uint64_t>(k);
    }
    return true;
  });
  if (err != 0 || segments.empty()) return err;
  // Folded data left holes; the file still ends where the access does.
  std::int64_t end = 0;
  std::uint64_t covered = 0;
  for (const FileSegment& g : segments) {
    if (covered >= bytes) break;
    std::uint64_t n = std::min(g.len, bytes - covered);
    end = std::max(end, g.offset + static_cast<std::int64_t>(n));
    covered += n;
  }
  std::int64_t size = host_size(fd);
  if (size >= 0 && size < end && ftruncate(fd, end) != 0) return errno;
  return 0;
}

std::uint64_t host_read(World& w, int fd, const TypedBuffer& mem,
                        const std::vector<FileSegment>& segments, std::uint64_t bytes, int* err) {
  *err = 0;
  std::int64_t size = host_size(fd);
  if (size < 0) {
    *err = errno;
    return 0;
  }
  // The data before the end of the file: a read stops at the first byte past it.
  std::uint64_t available = 0;
  for (const FileSegment& g : segments) {
    if (available >= bytes) break;
    std::uint64_t n = std::min(g.len, bytes - available);
    if (g.offset >= size) break;
    std::uint64_t in = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(size - g.offset));
    available += in;
    if (in < n) break;
  }
  for_each_overlap(w, mem, segments, available, [&](char* p, std::int64_t off, std::uint64_t n) {
    while (n > 0) {
      ssize_t k = pread(fd, p, n, off);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) {
        *err = errno;
        return false;
      }
      if (k == 0) return false;  // truncated meanwhile by another process of the host
      p += k;
      off += k;
      n -= static_cast<std::uint64_t>(k);
    }
    return true;
  });
  return available;
}

}  // namespace simmpi::mpi
