// SPDX-License-Identifier: Apache-2.0
// Construction of the job and handle lookup.
#include "libsimmpi/core/world.hpp"

#include <algorithm>
#include <functional>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

namespace {
// Context ids: WORLD uses 0 and 1 (point-to-point, collectives), SELF 2 and 3.
constexpr int kWorldContext = 0;
constexpr int kSelfContext = 2;
}  // namespace

World* World::instance_ = nullptr;

ProtocolParams::ProtocolParams(const runtime::Config& config)
    : send_overhead(config.time("mpi.send_overhead")),
      recv_overhead(config.time("mpi.recv_overhead")),
      poll_cost(config.time("mpi.poll_cost")),
      poll_fast_forward(config.flag("mpi.poll_fast_forward")),
      poll_fast_forward_after(config.integer("mpi.poll_fast_forward_after")),
      eager_threshold(config.size_bytes("mpi.eager_threshold")),
      epoch_s(config.integer("runtime.epoch")) {}

World::World(runtime::Scheduler& scheduler, hardware::Platform& platform,
             const runtime::Config& config, int size, int slots)
    : scheduler_(scheduler),
      platform_(platform),
      config_(config),
      params_(config),
      size_(size),
      ranks_(static_cast<std::size_t>(std::max(size, slots))) {
  min_message_delay_ = platform.min_latency();
  comms_.resize(3);
  comms_[1] = std::make_unique<Communicator>(MPI_COMM_WORLD, kWorldContext, size, "MPI_COMM_WORLD");
  instance_ = this;
}

World::~World() {
  if (instance_ == this) instance_ = nullptr;
}

void RankState::block_probing(runtime::Scheduler& s, Probing how, const runtime::WaitReason& why,
                              SimTime deadline) {
  const int me = s.current()->id();
  probing.push_back(Prober{me, how});
  s.block(why, deadline);
  probing.erase(std::find_if(probing.begin(), probing.end(),
                             [me](const Prober& q) { return q.process == me; }));
}

void World::charge_poll(bool can_progress) {
  runtime::Process* p = scheduler_.current();
  p->idle_poll = !can_progress;
  spend(params_.poll_cost);
  p->idle_poll = false;
  if (can_progress || scheduler_.pending_other_than_idle_polls() > 0) {
    idle_polls_ = 0;
    return;
  }
  if (++idle_polls_ < 1000000) return;
  scheduler_.report_deadlock(strprintf(
      "polls in %s for something that can never happen (a million polls with nothing in flight)",
      p->current_call ? p->current_call : "a test call"));
}

namespace {

// The view of the registered communicator `c` that `world_rank` belongs to, or nullptr.
Communicator* view_of(Communicator* c, int world_rank) {
  if (!c) return nullptr;
  if (c->comm_rank(world_rank) >= 0) return c;
  Communicator* other = &c->remote();
  return other->comm_rank(world_rank) >= 0 ? other : nullptr;
}

}  // namespace

Communicator* World::find_comm_otherwise(MPI_Comm h, int world_rank) {
  if (h == MPI_COMM_SELF) {
    auto& self = rank(world_rank).self;
    if (!self)
      self = std::make_unique<Communicator>(MPI_COMM_SELF, kSelfContext,
                                            std::vector<int>{world_rank}, "MPI_COMM_SELF");
    return self.get();
  }
  if (h == MPI_COMM_WORLD) {
    Communicator* w = rank(world_rank).spawned_world;
    return w && !w->has_freed(w->comm_rank(world_rank)) ? w : nullptr;
  }
  auto u = static_cast<unsigned>(h);
  if ((u >> 24) != SIMMPI_KIND_COMM) return nullptr;
  std::size_t index = u & 0xFFFFFFu;
  if (index >= comms_.size()) return nullptr;
  Communicator* v = view_of(comms_[index].get(), world_rank);
  return v && !v->has_freed(v->comm_rank(world_rank)) ? v : nullptr;
}

bool World::has_freed_comm(MPI_Comm h, int world_rank) {
  auto u = static_cast<unsigned>(h);
  std::size_t index = u & 0xFFFFFFu;
  if ((u >> 24) != SIMMPI_KIND_COMM || index >= comms_.size()) return false;
  Communicator* v = view_of(comms_[index].get(), world_rank);
  return v && v->has_freed(v->comm_rank(world_rank));
}

MPI_Comm World::add_comm(std::unique_ptr<Communicator> c) {
  std::size_t index;
  if (!free_comm_slots_.empty()) {
    std::pop_heap(free_comm_slots_.begin(), free_comm_slots_.end(), std::greater<>());
    index = free_comm_slots_.back();
    free_comm_slots_.pop_back();
  } else {
    index = comms_.size();
    SIMMPI_ASSERT(index < 0xFFFFFFu, "fewer than 16M communicators alive at once");
    comms_.emplace_back();
  }
  MPI_Comm h = SIMMPI_HANDLE(SIMMPI_KIND_COMM, index);
  c->set_handle(h);
  comms_[index] = std::move(c);
  return h;
}

void World::release_comm(Communicator& c) {
  Communicator& anchor = c.anchor();
  std::size_t index = static_cast<unsigned>(anchor.handle()) & 0xFFFFFFu;
  if (anchor.handle() == MPI_COMM_NULL || index >= comms_.size() || comms_[index].get() != &anchor)
    return;  // unregistered: a view's local communicator, or MPI_COMM_SELF
  if (!anchor.is_unused() || !anchor.remote().is_unused()) return;
  comms_[index].reset();
  free_comm_slots_.push_back(index);
  std::push_heap(free_comm_slots_.begin(), free_comm_slots_.end(), std::greater<>());
}

}  // namespace simmpi::mpi
