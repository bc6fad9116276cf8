// SPDX-License-Identifier: Apache-2.0
// The queues of MPI_T events and their delivery (see tool_events.hpp).
#include "libsimmpi/core/tool_events.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <queue>
#include <vector>

#include "libsimmpi/core/world.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

struct UnexpectedMessageEvent {
  int source;
  int tag;
  MPI_Count bytes;
};
struct CollectiveAlgorithmEvent {
  int collective;
  int algorithm;
  int comm_size;
  MPI_Count bytes;
};

const ToolEventType kTypes[] = {
    {"unexpected_message",
     "A message reached this rank's matching with no receive posted for it, so it waits in the "
     "unexpected queue: its source (rank in its communicator), tag and size in bytes. Raised at "
     "the simulated time its envelope arrives.",
     3,
     {MPI_INT, MPI_INT, MPI_COUNT},
     {offsetof(UnexpectedMessageEvent, source), offsetof(UnexpectedMessageEvent, tag),
      offsetof(UnexpectedMessageEvent, bytes)}},
    {"collective_algorithm",
     "A collective call of this rank chose its algorithm: the collective (0 barrier, 1 bcast, "
     "2 reduce, 3 allreduce, 4 allgather, 5 allgatherv, 6 alltoall, 7 alltoallv, 8 gather, "
     "9 gatherv, 10 scatter, 11 scatterv, 12 reduce_scatter, 13 reduce_scatter_block, 14 scan, "
     "15 exscan), the algorithm (its number in the mpi.coll.* keys' list of names, 0 auto), the "
     "communicator's size and the bytes the rules looked at.",
     4,
     {MPI_INT, MPI_INT, MPI_INT, MPI_COUNT},
     {offsetof(CollectiveAlgorithmEvent, collective), offsetof(CollectiveAlgorithmEvent, algorithm),
      offsetof(CollectiveAlgorithmEvent, comm_size), offsetof(CollectiveAlgorithmEvent, bytes)}},
};
static_assert(std::size(kTypes) == static_cast<std::size_t>(ToolEvent::Count));

struct Pending {
  SimTime at;
  std::uint64_t seq;
  simmpi_t_event_registration* registration;
  simmpi_t_event_instance instance;
  bool operator>(const Pending& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

struct RankEvents {
  // By the order of their making, so that whatever goes over them is deterministic.
  std::map<std::uint64_t, std::unique_ptr<simmpi_t_event_registration>> registry;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> queue;
  bool delivering = false;
};

std::vector<RankEvents> g_ranks;
int g_wanted[static_cast<int>(ToolEvent::Count)] = {};  // registrations per type, all ranks
std::uint64_t g_seq = 0;

RankEvents& events_of(int rank) {
  if (static_cast<std::size_t>(rank) >= g_ranks.size()) g_ranks.resize(rank + 1);
  return g_ranks[static_cast<std::size_t>(rank)];
}

// The callback to run: the tool's for the least restrictive level it registered, since
// simmpi calls it where anything is allowed (MPI_T_CB_REQUIRE_NONE).
int callback_level(const simmpi_t_event_registration& r) {
  for (int level = MPI_T_CB_REQUIRE_NONE; level <= MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE; ++level)
    if (r.callbacks[level]) return level;
  return -1;
}

}  // namespace

const ToolEventType& tool_event_type(int index) {
  return kTypes[index];
}

bool is_tool_event_wanted(ToolEvent type) {
  return g_wanted[static_cast<int>(type)] > 0;
}

int g_tool_registrations = 0;

bool has_queued_tool_events(int world_rank) {
  return static_cast<std::size_t>(world_rank) < g_ranks.size() &&
         !g_ranks[static_cast<std::size_t>(world_rank)].queue.empty();
}

void raise_tool_event(World&, int world_rank, ToolEvent type, SimTime at,
                      std::initializer_list<std::int64_t> values) {
  RankEvents& e = events_of(world_rank);
  for (auto& [id, r] : e.registry) {
    if (r->index != static_cast<int>(type) || callback_level(*r) < 0) continue;
    if (r->queued >= r->capacity) {
      ++r->dropped;
      continue;
    }
    Pending p{at, g_seq++, r.get(), {}};
    p.instance.index = r->index;
    p.instance.at = at;
    std::size_t i = 0;
    for (std::int64_t v : values) p.instance.values[i++] = v;
    ++r->queued;
    e.queue.push(p);
  }
}

void deliver_tool_events(World& w, int world_rank) {
  RankEvents& e = events_of(world_rank);
  if (e.delivering) return;
  e.delivering = true;
  while (!e.queue.empty() && e.queue.top().at <= w.now()) {
    Pending p = e.queue.top();
    e.queue.pop();
    simmpi_t_event_registration* r = p.registration;
    --r->queued;
    const int level = callback_level(*r);
    if (level >= 0) r->callbacks[level](&p.instance, r, MPI_T_CB_REQUIRE_NONE, r->user_data[level]);
  }
  for (auto& [id, r] : e.registry) {
    if (!r->dropped || !r->dropped_handler || callback_level(*r) < 0) continue;
    const MPI_Count n = r->dropped;
    r->dropped = 0;
    r->dropped_handler(n, r.get(), 0, MPI_T_CB_REQUIRE_NONE, r->user_data[callback_level(*r)]);
  }
  e.delivering = false;
}

MPI_T_event_registration add_tool_registration(int world_rank, int index, std::size_t capacity) {
  auto r = std::make_unique<simmpi_t_event_registration>();
  r->rank = world_rank;
  r->index = index;
  r->capacity = capacity;
  simmpi_t_event_registration* h = r.get();
  events_of(world_rank).registry.emplace(g_seq++, std::move(r));
  ++g_wanted[index];
  ++g_tool_registrations;
  return h;
}

simmpi_t_event_registration* find_tool_registration(int world_rank, MPI_T_event_registration h) {
  for (auto& [id, r] : events_of(world_rank).registry)
    if (r.get() == h) return h;
  return nullptr;
}

void remove_tool_registration(int world_rank, MPI_T_event_registration h) {
  RankEvents& e = events_of(world_rank);
  std::vector<Pending> kept;  // its queued events go with it
  for (; !e.queue.empty(); e.queue.pop())
    if (e.queue.top().registration != h) kept.push_back(e.queue.top());
  for (const Pending& p : kept) e.queue.push(p);
  for (auto it = e.registry.begin(); it != e.registry.end(); ++it) {
    if (it->second.get() != h) continue;
    --g_wanted[it->second->index];
    --g_tool_registrations;
    e.registry.erase(it);
    return;
  }
  SIMMPI_ASSERT(false, "rank %d removes an event registration it does not hold", world_rank);
}

}  // namespace simmpi::mpi
