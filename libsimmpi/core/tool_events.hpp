// SPDX-License-Identifier: Apache-2.0
// MPI_T events (MPI-4.1 15.3.8) that simmpi raises, and their delivery to a tool's callbacks.
// An event is raised where the model decides it (a message found no posted receive, a collective
// chose its algorithm), stamped with the simulated time it happens at, and queued for each of
// the rank's registrations of its type, at most `capacity` per registration (the rest are
// counted as dropped). The callbacks run on the rank's own fiber, with its globals live, when
// its outermost MPI call returns, for the events whose time has come, in (time, raise order):
// the simulated clock is the one source, so they arrive in chronological order. Nothing is
// queued, and a raise costs one test, while no rank registers for a type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "mpi.h"
#include "runtime/core/sim_time.hpp"

namespace simmpi::mpi {

class World;
using runtime::SimTime;

// The event types, in MPI_T index order.
enum class ToolEvent : int { UnexpectedMessage = 0, CollectiveAlgorithm = 1, Count = 2 };

// What MPI_T_event_get_info reports of a type: elements as basic datatypes at displacements
// in the buffer MPI_T_event_copy fills.
struct ToolEventType {
  const char* name;
  const char* desc;
  int elements;
  MPI_Datatype datatypes[4];
  MPI_Aint displacements[4];
};
const ToolEventType& tool_event_type(int index);

// Whether some registration of some rank waits for events of `type` (the cheap test before a
// raise).
bool is_tool_event_wanted(ToolEvent type);

// Queues an event of `type` for rank `world_rank`, happening at `at`, with its elements'
// values (each stored as the element's datatype says). Does not yield; calls nothing of the tool.
void raise_tool_event(World& w, int world_rank, ToolEvent type, SimTime at,
                      std::initializer_list<std::int64_t> values);

// Runs the callbacks of rank `world_rank`'s events whose time is not after now, then the
// dropped handlers of registrations that lost events. Called on the rank's fiber outside any
// MPI call (ApiCall's end); a callback's own MPI calls deliver nothing more.
void deliver_tool_events(World& w, int world_rank);

// Registrations for events, of every rank and type: none, no event can be queued (a
// registration's queued events go with it).
extern int g_tool_registrations;
bool has_queued_tool_events(int world_rank);
// Whether rank `world_rank` has events queued: ApiCall's test at the end of every call, one load
// while no tool has registered for events.
inline bool has_tool_events(int world_rank) {
  return g_tool_registrations != 0 && has_queued_tool_events(world_rank);
}

// A rank's new registration for events of type `index`, queuing at most `capacity` of them.
MPI_T_event_registration add_tool_registration(int world_rank, int index, std::size_t capacity);
// The caller's live registration `h`, or nullptr.
struct simmpi_t_event_registration* find_tool_registration(int world_rank,
                                                           MPI_T_event_registration h);
// Forgets `h` and its queued events (MPI_T_event_handle_free calls its free callback).
void remove_tool_registration(int world_rank, MPI_T_event_registration h);

}  // namespace simmpi::mpi

// A registration (MPI_T_event_handle_alloc): the callbacks the tool set, one per safety level it
// declared them safe to, and what it has lost.
struct simmpi_t_event_registration {
  int rank = 0;
  int index = 0;  // the event type
  std::size_t capacity = 0;
  std::size_t queued = 0;
  MPI_Count dropped = 0;
  MPI_T_event_cb_function* callbacks[4] = {};
  void* user_data[4] = {};
  MPI_T_event_dropped_cb_function* dropped_handler = nullptr;
};

// An event as a callback sees it, valid during the callback.
struct simmpi_t_event_instance {
  int index = 0;
  simmpi::runtime::SimTime at;
  std::int64_t values[4] = {};
};
