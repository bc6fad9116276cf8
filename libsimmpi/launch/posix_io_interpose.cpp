// SPDX-License-Identifier: Apache-2.0
// POSIX file I/O of ranks timed by the storage model (DESIGN.md, "I/O"; issue 21): open, read,
// write, pread, pwrite and close, and fopen, fread, fwrite and fclose, called by a rank's own
// code on a path under one of the io.posix_mounts directories, do their host work and then
// charge the rank what the parallel file system (hardware/storage/) says: an open or close is
// one metadata operation, a read or write one striped access of the bytes moved at the file's
// offset. The file takes its striping from the file system's layout, as an MPI-IO file does.
// Other paths, and calls made inside the simulator (MPI-IO's own), are host I/O and cost
// nothing, as before. Writes count towards io.max_host_bytes.
// stdio buffers data, but each fread or fwrite is charged as the access it asks for at the
// stream's position: the file system sees the same bytes in fewer, larger requests.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>

#include "hardware/platform.hpp"
#include "libsimmpi/io/file.hpp"
#include "libsimmpi/io/host_data.hpp"
#include "libsimmpi/launch/fiber_threads.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "libsimmpi/p2p/transport.hpp"
#include "runtime/config/config.hpp"

namespace {

using simmpi::mpi::RealFunction;
using simmpi::mpi::World;
namespace hardware = simmpi::hardware;
namespace runtime = simmpi::runtime;

constinit RealFunction<int (*)(const char*, int, ...)> real_open{"open"};
constinit RealFunction<int (*)(const char*, int, ...)> real_open64{"open64"};
constinit RealFunction<int (*)(int)> real_close{"close"};
constinit RealFunction<ssize_t (*)(int, void*, size_t)> real_read{"read"};
constinit RealFunction<ssize_t (*)(int, const void*, size_t)> real_write{"write"};
constinit RealFunction<ssize_t (*)(int, void*, size_t, off_t)> real_pread{"pread"};
constinit RealFunction<ssize_t (*)(int, const void*, size_t, off_t)> real_pwrite{"pwrite"};
constinit RealFunction<FILE* (*)(const char*, const char*)> real_fopen{"fopen"};
constinit RealFunction<FILE* (*)(const char*, const char*)> real_fopen64{"fopen64"};
constinit RealFunction<int (*)(FILE*)> real_fclose{"fclose"};
constinit RealFunction<size_t (*)(void*, size_t, size_t, FILE*)> real_fread{"fread"};
constinit RealFunction<size_t (*)(const void*, size_t, size_t, FILE*)> real_fwrite{"fwrite"};

// The descriptors ranks opened under a mount point, with their path and striping.
struct Tracked {
  std::string path;
  hardware::Striping striping;
};
std::unordered_map<int, Tracked>& tracked() {
  static std::unordered_map<int, Tracked> fds;
  return fds;
}

// The rank whose own code makes this call, or -1 (the host's call, or one made inside MPI).
int charged_rank() {
  int rank = simmpi::mpi::program_rank();
  if (rank < 0) return -1;
  return World::get().scheduler().current()->current_call ? -1 : rank;
}

// Whether `path` lies under one of io.posix_mounts (comma-separated directories).
bool under_mount(const char* path) {
  const std::string& mounts = World::get().config().text("io.posix_mounts");
  if (mounts.empty() || !path) return false;
  std::string full = path;
  if (full.front() != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return false;
    full = std::string(cwd) + "/" + full;
  }
  std::size_t start = 0;
  while (start <= mounts.size()) {
    std::size_t end = mounts.find(',', start);
    if (end == std::string::npos) end = mounts.size();
    std::string m = mounts.substr(start, end - start);
    while (m.size() > 1 && m.back() == '/') m.pop_back();
    if (!m.empty() && full.compare(0, m.size(), m) == 0 &&
        (full.size() == m.size() || full[m.size()] == '/' || m == "/"))
      return true;
    start = end + 1;
  }
  return false;
}

void request_done(void* q, std::uint64_t, runtime::SimTime t) {
  simmpi::mpi::complete_request(World::get(), static_cast<simmpi::mpi::Request*>(q), t);
}

// Blocks the calling rank for one metadata operation, or one access of `bytes` at `offset`.
void charge(int rank, const char* call, const Tracked* f, std::int64_t offset, std::uint64_t bytes,
            hardware::IoDirection dir) {
  World& w = World::get();
  runtime::ScopedLibraryCall library(w.scheduler(), call);
  w.scheduler().settle();
  simmpi::mpi::Request* q = w.requests().create();
  q->kind = simmpi::mpi::RequestKind::Collective;
  q->owner = rank;
  q->waiter = w.scheduler().current()->id();
  q->call = call;
  hardware::StorageModel& storage = w.platform().storage();
  const int node = w.platform().node_of(rank);
  if (f)
    storage.access(node, f->striping, static_cast<std::uint64_t>(offset), bytes, dir,
                   hardware::ArrivalNotice{&request_done, q, 0});
  else
    storage.metadata(node, hardware::ArrivalNotice{&request_done, q, 0});
  simmpi::mpi::wait_request(w, *q);
  simmpi::mpi::retire_request(w, q, MPI_STATUS_IGNORE);
}

// A descriptor a rank opened: tracked, striped, and its open charged, when under a mount.
int opened(int rank, const char* call, const char* path, int fd) {
  if (fd < 0 || rank < 0 || !under_mount(path)) return fd;
  struct stat st {};
  fstat(fd, &st);
  std::string key = simmpi::strprintf("%lu:%lu", static_cast<unsigned long>(st.st_dev),
                                      static_cast<unsigned long>(st.st_ino));
  simmpi::mpi::Files& files = simmpi::mpi::Files::get();
  hardware::Striping s;
  if (const hardware::Striping* known = files.layout(key)) {
    s = *known;
  } else {
    s = World::get().platform().storage().stripe_new_file(0, 0);
    files.set_layout(key, s);
  }
  tracked()[fd] = Tracked{path, s};
  charge(rank, call, nullptr, 0, 0, hardware::IoDirection::Write);
  return fd;
}

const Tracked* find(int fd) {
  auto it = tracked().find(fd);
  return it == tracked().end() ? nullptr : &it->second;
}

// After a read or write of `done` bytes at `offset` on a tracked descriptor.
void accessed(int rank, const char* call, const Tracked* f, std::int64_t offset, ssize_t done,
              hardware::IoDirection dir) {
  if (done > 0) charge(rank, call, f, offset, static_cast<std::uint64_t>(done), dir);
}

void count_written(const Tracked* f, std::size_t n) {
  simmpi::mpi::charge_host_bytes(World::get(), n, f->path);
}

int open_with(RealFunction<int (*)(const char*, int, ...)>& real, const char* call,
              const char* path, int flags, va_list ap) {
  // glibc's rule (__OPEN_NEEDS_MODE) for whether a mode argument follows.
  const bool needs_mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
  mode_t mode = needs_mode ? va_arg(ap, mode_t) : 0;
  int rank = charged_rank();
  return opened(rank, call, path, real(path, flags, mode));
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = open_with(real_open, "open", path, flags, ap);
  va_end(ap);
  return fd;
}

__attribute__((visibility("default"))) int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int fd = open_with(real_open64, "open64", path, flags, ap);
  va_end(ap);
  return fd;
}

__attribute__((visibility("default"))) int close(int fd) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 ? find(fd) : nullptr;
  int r = real_close(fd);
  if (f) {
    tracked().erase(fd);
    charge(rank, "close", nullptr, 0, 0, hardware::IoDirection::Write);
  }
  return r;
}

__attribute__((visibility("default"))) ssize_t read(int fd, void* buf, size_t n) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 ? find(fd) : nullptr;
  off_t at = f ? lseek(fd, 0, SEEK_CUR) : 0;
  ssize_t r = real_read(fd, buf, n);
  if (f) accessed(rank, "read", f, at, r, hardware::IoDirection::Read);
  return r;
}

__attribute__((visibility("default"))) ssize_t write(int fd, const void* buf, size_t n) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 ? find(fd) : nullptr;
  if (f) count_written(f, n);
  off_t at = f ? lseek(fd, 0, SEEK_CUR) : 0;
  ssize_t r = real_write(fd, buf, n);
  if (f) accessed(rank, "write", f, at, r, hardware::IoDirection::Write);
  return r;
}

__attribute__((visibility("default"))) ssize_t pread(int fd, void* buf, size_t n, off_t at) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 ? find(fd) : nullptr;
  ssize_t r = real_pread(fd, buf, n, at);
  if (f) accessed(rank, "pread", f, at, r, hardware::IoDirection::Read);
  return r;
}

__attribute__((visibility("default"))) ssize_t pwrite(int fd, const void* buf, size_t n, off_t at) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 ? find(fd) : nullptr;
  if (f) count_written(f, n);
  ssize_t r = real_pwrite(fd, buf, n, at);
  if (f) accessed(rank, "pwrite", f, at, r, hardware::IoDirection::Write);
  return r;
}

__attribute__((visibility("default"))) FILE* fopen(const char* path, const char* mode) {
  int rank = charged_rank();
  FILE* fp = real_fopen(path, mode);
  if (fp) opened(rank, "fopen", path, fileno(fp));
  return fp;
}

__attribute__((visibility("default"))) FILE* fopen64(const char* path, const char* mode) {
  int rank = charged_rank();
  FILE* fp = real_fopen64(path, mode);
  if (fp) opened(rank, "fopen64", path, fileno(fp));
  return fp;
}

__attribute__((visibility("default"))) int fclose(FILE* fp) {
  int rank = charged_rank();
  int fd = fp ? fileno(fp) : -1;
  const Tracked* f = rank >= 0 ? find(fd) : nullptr;
  int r = real_fclose(fp);
  if (f) {
    tracked().erase(fd);
    charge(rank, "fclose", nullptr, 0, 0, hardware::IoDirection::Write);
  }
  return r;
}

__attribute__((visibility("default"))) size_t fread(void* buf, size_t size, size_t n, FILE* fp) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 && fp ? find(fileno(fp)) : nullptr;
  long at = f ? ftell(fp) : 0;
  size_t r = real_fread(buf, size, n, fp);
  if (f)
    accessed(rank, "fread", f, at, static_cast<ssize_t>(r * size), hardware::IoDirection::Read);
  return r;
}

__attribute__((visibility("default"))) size_t fwrite(const void* buf, size_t size, size_t n,
                                                     FILE* fp) {
  int rank = charged_rank();
  const Tracked* f = rank >= 0 && fp ? find(fileno(fp)) : nullptr;
  if (f) count_written(f, size * n);
  long at = f ? ftell(fp) : 0;
  size_t r = real_fwrite(buf, size, n, fp);
  if (f)
    accessed(rank, "fwrite", f, at, static_cast<ssize_t>(r * size), hardware::IoDirection::Write);
  return r;
}

}  // extern "C"
