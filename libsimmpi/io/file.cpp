// SPDX-License-Identifier: Apache-2.0
// File objects and the job's table of them.
#include "libsimmpi/io/file.hpp"

#include <unistd.h>

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

File::File(MPI_File handle, Communicator& comm, std::string path)
    : handle_(handle),
      comm_(comm),
      path_(std::move(path)),
      members_(static_cast<std::size_t>(comm.size())),
      live_members_(comm.size()) {}

File::~File() {
  if (fd >= 0) ::close(fd);
}

bool File::leave(int comm_rank) {
  member(comm_rank).closed = true;
  return --live_members_ == 0;
}

Files* Files::instance_ = nullptr;

Files::Files(const runtime::Config& config, int ranks)
    : max_host_bytes_(config.size_bytes("io.max_host_bytes")),
      defaults_(static_cast<std::size_t>(ranks), {MPI_ERRORS_RETURN, nullptr}) {
  instance_ = this;
}

Files::~Files() {
  instance_ = nullptr;
}

Files& Files::get() {
  SIMMPI_ASSERT(instance_, "no job's files exist outside a simulation");
  return *instance_;
}

File* Files::find(MPI_File h) {
  std::unique_ptr<File>* f = table_.find(h);
  return f ? f->get() : nullptr;
}

File& Files::take(Communicator& comm, const std::string& path, bool* first) {
  auto make = [&]() -> File& {
    MPI_File h = table_.emplace([&](int h) { return std::make_unique<File>(h, comm, path); });
    return *find(h);
  };
  return making_.take(comm, comm.size(), make, first);
}

void Files::remove(File* f) {
  table_.remove(f->handle());
}

const hardware::Striping* Files::layout(const std::string& key) const {
  auto it = layouts_.find(key);
  return it == layouts_.end() ? nullptr : &it->second;
}

}  // namespace simmpi::mpi
