// SPDX-License-Identifier: Apache-2.0
// Info lists and the per-rank tables, with MPI_INFO_ENV.
#include "libsimmpi/info/info_objects.hpp"

#include <unistd.h>

#include <algorithm>

#include "libsimmpi/core/world.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
      return "MPI_THREAD_MULTIPLE";
    default:
      return "MPI_THREAD_SINGLE";
  }
}

// MPI-3.1 9.1.2 lists the keys; those simmpi cannot state truthfully are left out, as the
// standard allows: "command" and "argv" (the launcher keeps the program's arguments to itself),
// "soft", "arch" and "file".
Info environment_info(int world_rank) {
  World& w = World::get();
  Info env;
  env.set("maxprocs", std::to_string(w.world_comm_of(world_rank).size()));
  env.set("host", strprintf("node%d", w.platform().node_of(world_rank)));
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) env.set("wdir", cwd);
  env.set("thread_level", thread_level_name(w.rank(world_rank).thread_level));
  return env;
}

}  // namespace

const std::pair<std::string, std::string>* Info::find(const std::string& key) const {
  auto it = std::find_if(entries.begin(), entries.end(), [&](auto& e) { return e.first == key; });
  return it == entries.end() ? nullptr : &*it;
}

void Info::set(const std::string& key, const std::string& value) {
  if (auto* e = const_cast<std::pair<std::string, std::string>*>(find(key)))
    e->second = value;
  else
    entries.emplace_back(key, value);
}

bool Info::erase(const std::string& key) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](auto& e) { return e.first == key; });
  if (it == entries.end()) return false;
  entries.erase(it);
  return true;
}

InfoObjects* InfoObjects::instance_ = nullptr;

InfoObjects::InfoObjects(int ranks) : ranks_(static_cast<std::size_t>(ranks)) {
  instance_ = this;
}

InfoObjects::~InfoObjects() {
  if (instance_ == this) instance_ = nullptr;
}

InfoObjects& InfoObjects::get() {
  SIMMPI_ASSERT(instance_, "the info objects exist while a job runs");
  return *instance_;
}

InfoObjects::RankInfos& InfoObjects::rank(int world_rank) {
  auto& slot = ranks_[static_cast<std::size_t>(world_rank)];
  if (!slot) slot = std::make_unique<RankInfos>();
  return *slot;
}

MPI_Info InfoObjects::add(int world_rank, Info info) {
  return rank(world_rank).table.add(std::move(info));
}

const Info* InfoObjects::find(int world_rank, MPI_Info h) {
  if (h != MPI_INFO_ENV) return find_mutable(world_rank, h);
  RankInfos& r = rank(world_rank);
  if (!r.env) r.env = std::make_unique<Info>(environment_info(world_rank));
  return r.env.get();
}

Info* InfoObjects::find_mutable(int world_rank, MPI_Info h) {
  return rank(world_rank).table.find(h);
}

Info InfoObjects::environment(int world_rank) {
  return *find(world_rank, MPI_INFO_ENV);
}

void InfoObjects::remove(int world_rank, MPI_Info h) {
  rank(world_rank).table.remove(h);
}

}  // namespace simmpi::mpi
