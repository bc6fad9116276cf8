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
  auto u = static_cast<unsigned>(h);
  if ((u >> 24) != SIMMPI_KIND_FILE) return nullptr;
  std::size_t index = u & 0xFFFFFFu;
  return index < table_.size() ? table_[index].get() : nullptr;
}

File& Files::take(Communicator& comm, const std::string& path, bool* first) {
  auto it = making_.find(&comm);
  *first = it == making_.end();
  if (*first) {
    std::size_t index = table_.size();
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      table_.emplace_back();
    }
    table_[index] = std::make_unique<File>(
        SIMMPI_HANDLE(SIMMPI_KIND_FILE, static_cast<unsigned>(index)), comm, path);
    it = making_.emplace(&comm, Making{table_[index].get(), comm.size()}).first;
  }
  File& f = *it->second.file;
  if (--it->second.takers_left == 0) making_.erase(it);
  return f;
}

int Files::takers_left(const Communicator& comm) const {
  auto it = making_.find(&comm);
  return it == making_.end() ? 0 : it->second.takers_left;
}

void Files::remove(File* f) {
  std::size_t index = static_cast<unsigned>(f->handle()) & 0xFFFFFFu;
  table_[index].reset();
  free_.push_back(index);
}

const hardware::Striping* Files::layout(const std::string& key) const {
  auto it = layouts_.find(key);
  return it == layouts_.end() ? nullptr : &it->second;
}

}  // namespace simmpi::mpi
