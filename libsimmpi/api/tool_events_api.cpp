// SPDX-License-Identifier: Apache-2.0
// MPI_T events (MPI-4.1 15.3.8): the event types simmpi raises (core/tool_events.hpp), one event
// source, the simulated clock (ticks are picoseconds, ordered), registrations with a callback
// per safety level and a dropped-events handler, and the reads of an event instance inside a
// callback. As the rest of MPI_T, the calls return their error codes and call no error handler.
// A registration queues at most 1024 events not yet delivered (info key "simmpi_queue_length"
// at MPI_T_event_handle_alloc sets another bound); beyond, events are counted and reported to
// the dropped handler. Event types bind to no object: obj_handle is ignored.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "libsimmpi/api/tool_interface.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/tool_events.hpp"
#include "libsimmpi/info/info_objects.hpp"

using namespace simmpi::mpi;

namespace {

constexpr int kEventTypes = static_cast<int>(ToolEvent::Count);
constexpr std::size_t kDefaultQueueLength = 1024;
constexpr const char* kSourceName = "simulated_clock";
constexpr const char* kSourceDesc =
    "simmpi's simulated clock: every event is stamped with the simulated time it happens at, in "
    "picoseconds, and delivered in that order.";

bool is_initialized(const ApiCall& call) {
  return is_tool_interface_initialized(call.rank);
}

// A new empty info for an info output (the tool frees it); no hints are used.
void empty_info(MPI_Info* info) {
  if (info) PMPI_Info_create(info);
}

// The queue bound the registration's info asks for (a positive integer), else the default.
std::size_t queue_length(int rank, MPI_Info info) {
  if (info == MPI_INFO_NULL) return kDefaultQueueLength;
  const Info* i = InfoObjects::get().find(rank, info);
  const auto* e = i ? i->find("simmpi_queue_length") : nullptr;
  if (!e) return kDefaultQueueLength;
  const long n = std::strtol(e->second.c_str(), nullptr, 10);
  return n > 0 ? static_cast<std::size_t>(n) : kDefaultQueueLength;
}

bool is_safety_level(MPI_T_cb_safety s) {
  return s >= MPI_T_CB_REQUIRE_NONE && s <= MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE;
}

// The caller's registration, or nullptr (MPI_T_ERR_INVALID_HANDLE).
simmpi_t_event_registration* registration(const ApiCall& call, MPI_T_event_registration h) {
  return find_tool_registration(call.rank, h);
}

}  // namespace

extern "C" {

int MPI_T_source_get_num(int* num_sources) {
  ApiCall call("MPI_T_source_get_num", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_sources) return MPI_ERR_ARG;
  *num_sources = 1;
  return MPI_SUCCESS;
}

int MPI_T_source_get_info(int source_index, char* name, int* name_len, char* desc, int* desc_len,
                          MPI_T_source_order* ordering, MPI_Count* ticks_per_second,
                          MPI_Count* max_ticks, MPI_Info* info) {
  ApiCall call("MPI_T_source_get_info", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (source_index != 0) return MPI_T_ERR_INVALID_INDEX;
  copy_tool_string(kSourceName, name, name_len);
  copy_tool_string(kSourceDesc, desc, desc_len);
  if (ordering) *ordering = MPI_T_SOURCE_ORDERED;
  if (ticks_per_second) *ticks_per_second = 1000000000000LL;
  if (max_ticks) *max_ticks = INT64_MAX;
  empty_info(info);
  return MPI_SUCCESS;
}

int MPI_T_source_get_timestamp(int source_index, MPI_Count* timestamp) {
  ApiCall call("MPI_T_source_get_timestamp", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (source_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (!timestamp) return MPI_ERR_ARG;
  *timestamp = call.world.now().ps();
  return MPI_SUCCESS;
}

int MPI_T_event_get_num(int* num_events) {
  ApiCall call("MPI_T_event_get_num", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num_events) return MPI_ERR_ARG;
  *num_events = kEventTypes;
  return MPI_SUCCESS;
}

// *num_elements in is the length of the two arrays; out, the type's number of elements.
int MPI_T_event_get_info(int event_index, char* name, int* name_len, int* verbosity,
                         MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                         int* num_elements, MPI_T_enum* enumtype, MPI_Info* info, char* desc,
                         int* desc_len, int* bind) {
  ApiCall call("MPI_T_event_get_info", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (event_index < 0 || event_index >= kEventTypes) return MPI_T_ERR_INVALID_INDEX;
  const ToolEventType& t = tool_event_type(event_index);
  copy_tool_string(t.name, name, name_len);
  copy_tool_string(t.desc, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_DETAIL;
  if (num_elements) {
    const int room = *num_elements < t.elements ? *num_elements : t.elements;
    for (int i = 0; i < room; ++i) {
      if (array_of_datatypes) array_of_datatypes[i] = t.datatypes[i];
      if (array_of_displacements) array_of_displacements[i] = t.displacements[i];
    }
    *num_elements = t.elements;
  }
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  empty_info(info);
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  return MPI_SUCCESS;
}

int MPI_T_event_get_index(const char* name, int* event_index) {
  ApiCall call("MPI_T_event_get_index", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !event_index) return MPI_ERR_ARG;
  for (int i = 0; i < kEventTypes; ++i)
    if (std::strcmp(tool_event_type(i).name, name) == 0) {
      *event_index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_event_handle_alloc(int event_index, void*, MPI_Info info,
                             MPI_T_event_registration* event_registration) {
  ApiCall call("MPI_T_event_handle_alloc", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (event_index < 0 || event_index >= kEventTypes) return MPI_T_ERR_INVALID_INDEX;
  if (!event_registration) return MPI_ERR_ARG;
  *event_registration =
      add_tool_registration(call.rank, event_index, queue_length(call.rank, info));
  return MPI_SUCCESS;
}

int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info) {
  ApiCall call("MPI_T_event_handle_set_info", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  return registration(call, event_registration) ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info* info_used) {
  ApiCall call("MPI_T_event_handle_get_info", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!registration(call, event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  if (!info_used) return MPI_ERR_ARG;
  empty_info(info_used);
  return MPI_SUCCESS;
}

// A null function removes the callback of that level.
int MPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info, void* user_data,
                                  MPI_T_event_cb_function* event_cb_function) {
  ApiCall call("MPI_T_event_register_callback", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  simmpi_t_event_registration* r = registration(call, event_registration);
  if (!r) return MPI_T_ERR_INVALID_HANDLE;
  if (!is_safety_level(cb_safety)) return MPI_ERR_ARG;
  r->callbacks[cb_safety] = event_cb_function;
  r->user_data[cb_safety] = user_data;
  return MPI_SUCCESS;
}

int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info) {
  ApiCall call("MPI_T_event_callback_set_info", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!registration(call, event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  return is_safety_level(cb_safety) ? MPI_SUCCESS : MPI_ERR_ARG;
}

int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info* info_used) {
  ApiCall call("MPI_T_event_callback_get_info", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!registration(call, event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  if (!is_safety_level(cb_safety) || !info_used) return MPI_ERR_ARG;
  empty_info(info_used);
  return MPI_SUCCESS;
}

// Events still queued for it are dropped without a report; the free callback runs at once (no
// event of it can be running: callbacks run on the rank's own fiber, one at a time).
int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void* user_data,
                            MPI_T_event_free_cb_function* free_cb_function) {
  ApiCall call("MPI_T_event_handle_free", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!registration(call, event_registration)) return MPI_T_ERR_INVALID_HANDLE;
  remove_tool_registration(call.rank, event_registration);
  if (free_cb_function) free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
  return MPI_SUCCESS;
}

int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                    MPI_T_event_dropped_cb_function* dropped_cb_function) {
  ApiCall call("MPI_T_event_set_dropped_handler", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  simmpi_t_event_registration* r = registration(call, event_registration);
  if (!r) return MPI_T_ERR_INVALID_HANDLE;
  r->dropped_handler = dropped_cb_function;
  return MPI_SUCCESS;
}

int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void* buffer) {
  ApiCall call("MPI_T_event_read", ApiCall::Needs::Nothing);
  if (!event_instance) return MPI_T_ERR_INVALID_HANDLE;
  const ToolEventType& t = tool_event_type(event_instance->index);
  if (element_index < 0 || element_index >= t.elements) return MPI_T_ERR_INVALID_INDEX;
  if (!buffer) return MPI_ERR_ARG;
  const std::int64_t v = event_instance->values[element_index];
  if (t.datatypes[element_index] == MPI_INT)
    *static_cast<int*>(buffer) = static_cast<int>(v);
  else
    *static_cast<MPI_Count*>(buffer) = static_cast<MPI_Count>(v);
  return MPI_SUCCESS;
}

int MPI_T_event_copy(MPI_T_event_instance event_instance, void* buffer) {
  ApiCall call("MPI_T_event_copy", ApiCall::Needs::Nothing);
  if (!event_instance) return MPI_T_ERR_INVALID_HANDLE;
  if (!buffer) return MPI_ERR_ARG;
  const ToolEventType& t = tool_event_type(event_instance->index);
  for (int i = 0; i < t.elements; ++i)
    PMPI_T_event_read(event_instance, i, static_cast<char*>(buffer) + t.displacements[i]);
  return MPI_SUCCESS;
}

int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count* event_timestamp) {
  ApiCall call("MPI_T_event_get_timestamp", ApiCall::Needs::Nothing);
  if (!event_instance) return MPI_T_ERR_INVALID_HANDLE;
  if (!event_timestamp) return MPI_ERR_ARG;
  *event_timestamp = event_instance->at.ps();
  return MPI_SUCCESS;
}

int MPI_T_event_get_source(MPI_T_event_instance event_instance, int* source_index) {
  ApiCall call("MPI_T_event_get_source", ApiCall::Needs::Nothing);
  if (!event_instance) return MPI_T_ERR_INVALID_HANDLE;
  if (!source_index) return MPI_ERR_ARG;
  *source_index = 0;
  return MPI_SUCCESS;
}

// The one category, "simmpi" (index 0), holds every event type.
int MPI_T_category_get_num_events(int cat_index, int* num_events) {
  ApiCall call("MPI_T_category_get_num_events", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (!num_events) return MPI_ERR_ARG;
  *num_events = kEventTypes;
  return MPI_SUCCESS;
}

int MPI_T_category_get_events(int cat_index, int len, int indices[]) {
  ApiCall call("MPI_T_category_get_events", ApiCall::Needs::Nothing);
  if (!is_initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && !indices)) return MPI_ERR_ARG;
  for (int i = 0; i < len && i < kEventTypes; ++i) indices[i] = i;
  return MPI_SUCCESS;
}

}  // extern "C"
