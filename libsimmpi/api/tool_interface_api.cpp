// SPDX-License-Identifier: Apache-2.0
// The MPI tool information interface (MPI-3.1 14.3, MPI_T_*), with simmpi's own variables:
//  - control variables: every configuration key of the run (runtime/config/options.cpp's
//    registry, as --help-config lists them), named by the key ("mpi.eager_threshold"), read as
//    the text the configuration holds (MPI_CHAR, "64KiB", "auto"), scope MPI_T_SCOPE_CONSTANT:
//    the model is fixed for a run, so a write is MPI_T_ERR_CVAR_SET_NEVER;
//  - performance variables, each the calling rank's own, continuous and read-only:
//    unexpected_queue_length and posted_receive_queue_length (level: messages that arrived and
//    wait for a receive, receives posted and waiting for a message), and own_code_time (timer:
//    simulated seconds the rank's own code has been charged, docs/compute_time.md);
//  - one category, "simmpi", holding them all, and the MPI-4.1 event types (tool_events_api.cpp);
//    no enumerations.
// As the standard says, these functions return their error codes and call no error handler, and
// may be called before MPI_Init and after MPI_Finalize (between MPI_T_init_thread and
// MPI_T_finalize, counted per rank).
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "libsimmpi/api/tool_interface.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/world.hpp"
#include "runtime/config/options.hpp"

using simmpi::mpi::ApiCall;
using simmpi::mpi::RankState;
using simmpi::mpi::World;

struct simmpi_t_cvar_handle {
  int index;
};
struct simmpi_t_pvar_session {
  std::set<struct simmpi_t_pvar_handle*> handles;
};
struct simmpi_t_pvar_handle {
  int index;
};

namespace {

struct PerformanceVariable {
  const char* name;
  int var_class;
  MPI_Datatype datatype;
  const char* desc;
  // Writes the rank's current value to `buf`.
  void (*read)(World& w, int rank, void* buf);
};

unsigned queue_length(const simmpi::mpi::IntrusiveList<simmpi::mpi::Message>& q) {
  unsigned n = 0;
  q.find([&](const simmpi::mpi::Message&) { return ++n, false; });
  return n;
}

unsigned queue_length(const simmpi::mpi::IntrusiveList<simmpi::mpi::Request>& q) {
  unsigned n = 0;
  q.find([&](const simmpi::mpi::Request&) { return ++n, false; });
  return n;
}

const PerformanceVariable kPerformanceVariables[] = {
    {"unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED,
     "Messages that have arrived at this rank and wait for a matching receive.",
     [](World& w, int rank, void* buf) {
       *static_cast<unsigned*>(buf) = queue_length(w.rank(rank).unexpected);
     }},
    {"posted_receive_queue_length", MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED,
     "Receives this rank has posted that wait for a matching message.",
     [](World& w, int rank, void* buf) {
       *static_cast<unsigned*>(buf) = queue_length(w.rank(rank).posted);
     }},
    {"own_code_time", MPI_T_PVAR_CLASS_TIMER, MPI_DOUBLE,
     "Simulated seconds this rank's own code (between library calls) has been charged so far "
     "(runtime.host_time = measure; 0 under ignore).",
     [](World& w, int rank, void* buf) {
       *static_cast<double*>(buf) = w.scheduler().process(rank).own_time().charged.seconds();
     }},
};
constexpr int kPerformanceCount = static_cast<int>(std::size(kPerformanceVariables));

const std::vector<simmpi::runtime::OptionSpec>& control_variables() {
  return simmpi::runtime::option_registry();
}
int control_count() {
  return static_cast<int>(control_variables().size());
}

constexpr const char* kCategory = "simmpi";
constexpr const char* kCategoryDesc =
    "simmpi's configuration keys (control variables) and per-rank performance variables";

// Per rank: how many MPI_T_init_thread calls are not yet matched by MPI_T_finalize, and the
// handles and sessions it made (so a stale or foreign handle is an error, not a crash).
struct RankTools {
  int initialized = 0;
  std::set<simmpi_t_cvar_handle*> cvars;
  std::set<simmpi_t_pvar_session*> sessions;
};
std::vector<RankTools> g_ranks;

RankTools& tools_of(int rank) {
  if (static_cast<std::size_t>(rank) >= g_ranks.size()) g_ranks.resize(rank + 1);
  return g_ranks[static_cast<std::size_t>(rank)];
}

// Copies `text` into (buf, *len) as the standard's string rules say: *len in is the buffer's
// size, out the length written including the terminator; a null buf or zero length asks for it.
void copy_string(const char* text, char* buf, int* len) {
  if (!len) return;
  const int need = static_cast<int>(std::strlen(text)) + 1;
  if (buf && *len > 0) {
    std::snprintf(buf, static_cast<std::size_t>(*len), "%s", text);
    *len = std::min(*len, need);
  } else {
    *len = need;
  }
}

template <class T>
void set(T* out, T value) {
  if (out) *out = value;
}

// The calling rank's tool state, or nullptr when MPI_T is not initialized on it.
RankTools* initialized(ApiCall& call) {
  RankTools& t = tools_of(call.rank);
  return t.initialized > 0 ? &t : nullptr;
}

}  // namespace

bool simmpi::mpi::is_tool_interface_initialized(int world_rank) {
  return tools_of(world_rank).initialized > 0;
}

void simmpi::mpi::copy_tool_string(const char* text, char* buf, int* len) {
  copy_string(text, buf, len);
}

extern "C" {

int MPI_T_init_thread(int required, int* provided) {
  ApiCall call("MPI_T_init_thread", ApiCall::Needs::Nothing);
  if (!provided) return MPI_ERR_ARG;
  ++tools_of(call.rank).initialized;
  *provided = required < MPI_THREAD_MULTIPLE ? required : MPI_THREAD_MULTIPLE;
  return MPI_SUCCESS;
}

int MPI_T_finalize() {
  ApiCall call("MPI_T_finalize", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (--t->initialized == 0) {  // the last finalize frees what the tool left
    for (auto* h : t->cvars) delete h;
    for (auto* s : t->sessions) {
      for (auto* h : s->handles) delete h;
      delete s;
    }
    t->cvars.clear();
    t->sessions.clear();
  }
  return MPI_SUCCESS;
}

int MPI_T_enum_get_info(MPI_T_enum, int*, char*, int*) {
  ApiCall call("MPI_T_enum_get_info", ApiCall::Needs::Nothing);
  return initialized(call) ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED;
}

int MPI_T_enum_get_item(MPI_T_enum, int, int*, char*, int*) {
  ApiCall call("MPI_T_enum_get_item", ApiCall::Needs::Nothing);
  return initialized(call) ? MPI_T_ERR_INVALID_HANDLE : MPI_T_ERR_NOT_INITIALIZED;
}

// ---- control variables

int MPI_T_cvar_get_num(int* num) {
  ApiCall call("MPI_T_cvar_get_num", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num) return MPI_ERR_ARG;
  *num = control_count();
  return MPI_SUCCESS;
}

int MPI_T_cvar_get_info(int index, char* name, int* name_len, int* verbosity,
                        MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                        int* bind, int* scope) {
  ApiCall call("MPI_T_cvar_get_info", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (index < 0 || index >= control_count()) return MPI_T_ERR_INVALID_INDEX;
  const auto& spec = control_variables()[static_cast<std::size_t>(index)];
  copy_string(spec.key, name, name_len);
  copy_string(spec.help, desc, desc_len);
  set(verbosity, MPI_T_VERBOSITY_USER_BASIC);
  set(datatype, MPI_CHAR);
  set(enumtype, MPI_T_ENUM_NULL);
  set(bind, MPI_T_BIND_NO_OBJECT);
  set(scope, MPI_T_SCOPE_CONSTANT);
  return MPI_SUCCESS;
}

int MPI_T_cvar_get_index(const char* name, int* index) {
  ApiCall call("MPI_T_cvar_get_index", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !index) return MPI_ERR_ARG;
  for (int i = 0; i < control_count(); ++i)
    if (std::strcmp(control_variables()[static_cast<std::size_t>(i)].key, name) == 0) {
      *index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_cvar_handle_alloc(int index, void*, MPI_T_cvar_handle* handle, int* count) {
  ApiCall call("MPI_T_cvar_handle_alloc", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (index < 0 || index >= control_count()) return MPI_T_ERR_INVALID_INDEX;
  if (!handle || !count) return MPI_ERR_ARG;
  const auto& spec = control_variables()[static_cast<std::size_t>(index)];
  *handle = *t->cvars.insert(new simmpi_t_cvar_handle{index}).first;
  *count = static_cast<int>(call.world.config().value_text(spec.key).size()) + 1;
  return MPI_SUCCESS;
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  ApiCall call("MPI_T_cvar_handle_free", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!handle || !t->cvars.erase(*handle)) return MPI_T_ERR_INVALID_HANDLE;
  delete *handle;
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  ApiCall call("MPI_T_cvar_read", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!t->cvars.count(handle)) return MPI_T_ERR_INVALID_HANDLE;
  if (!buf) return MPI_ERR_ARG;
  const auto& spec = control_variables()[static_cast<std::size_t>(handle->index)];
  const std::string& text = call.world.config().value_text(spec.key);
  std::memcpy(buf, text.c_str(), text.size() + 1);
  return MPI_SUCCESS;
}

int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void*) {
  ApiCall call("MPI_T_cvar_write", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!t->cvars.count(handle)) return MPI_T_ERR_INVALID_HANDLE;
  return MPI_T_ERR_CVAR_SET_NEVER;  // the simulated machine is fixed for the run
}

// ---- performance variables

int MPI_T_pvar_get_num(int* num) {
  ApiCall call("MPI_T_pvar_get_num", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num) return MPI_ERR_ARG;
  *num = kPerformanceCount;
  return MPI_SUCCESS;
}

int MPI_T_pvar_get_info(int index, char* name, int* name_len, int* verbosity, int* var_class,
                        MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                        int* bind, int* readonly, int* continuous, int* atomic) {
  ApiCall call("MPI_T_pvar_get_info", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (index < 0 || index >= kPerformanceCount) return MPI_T_ERR_INVALID_INDEX;
  const PerformanceVariable& v = kPerformanceVariables[index];
  copy_string(v.name, name, name_len);
  copy_string(v.desc, desc, desc_len);
  set(verbosity, MPI_T_VERBOSITY_USER_BASIC);
  set(var_class, v.var_class);
  set(datatype, v.datatype);
  set(enumtype, MPI_T_ENUM_NULL);
  set(bind, MPI_T_BIND_NO_OBJECT);
  set(readonly, 1);
  set(continuous, 1);
  set(atomic, 0);
  return MPI_SUCCESS;
}

int MPI_T_pvar_get_index(const char* name, int var_class, int* index) {
  ApiCall call("MPI_T_pvar_get_index", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !index) return MPI_ERR_ARG;
  for (int i = 0; i < kPerformanceCount; ++i)
    if (kPerformanceVariables[i].var_class == var_class &&
        std::strcmp(kPerformanceVariables[i].name, name) == 0) {
      *index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  ApiCall call("MPI_T_pvar_session_create", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!session) return MPI_ERR_ARG;
  *session = *t->sessions.insert(new simmpi_t_pvar_session).first;
  return MPI_SUCCESS;
}

int MPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  ApiCall call("MPI_T_pvar_session_free", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!session || !t->sessions.erase(*session)) return MPI_T_ERR_INVALID_SESSION;
  for (auto* h : (*session)->handles) delete h;
  delete *session;
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

namespace {

// The session and handle, checked: 0, or the error code.
int check_pvar(ApiCall& call, MPI_T_pvar_session session, MPI_T_pvar_handle handle,
               bool all_allowed) {
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!t->sessions.count(session)) return MPI_T_ERR_INVALID_SESSION;
  if (handle == MPI_T_PVAR_ALL_HANDLES) return all_allowed ? 0 : MPI_T_ERR_INVALID_HANDLE;
  if (!session->handles.count(handle)) return MPI_T_ERR_INVALID_HANDLE;
  return 0;
}

}  // namespace

int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int index, void*, MPI_T_pvar_handle* handle,
                            int* count) {
  ApiCall call("MPI_T_pvar_handle_alloc", ApiCall::Needs::Nothing);
  RankTools* t = initialized(call);
  if (!t) return MPI_T_ERR_NOT_INITIALIZED;
  if (!t->sessions.count(session)) return MPI_T_ERR_INVALID_SESSION;
  if (index < 0 || index >= kPerformanceCount) return MPI_T_ERR_INVALID_INDEX;
  if (!handle || !count) return MPI_ERR_ARG;
  *handle = *session->handles.insert(new simmpi_t_pvar_handle{index}).first;
  *count = 1;
  return MPI_SUCCESS;
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  ApiCall call("MPI_T_pvar_handle_free", ApiCall::Needs::Nothing);
  if (!handle) return MPI_T_ERR_INVALID_HANDLE;
  if (int err = check_pvar(call, session, *handle, false)) return err;
  session->handles.erase(*handle);
  delete *handle;
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

// Every variable is continuous: it cannot be started or stopped (for all handles, the calls
// are no-ops, as the standard says for continuous ones).
int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  ApiCall call("MPI_T_pvar_start", ApiCall::Needs::Nothing);
  if (int err = check_pvar(call, session, handle, true)) return err;
  return handle == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_STARTSTOP;
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  ApiCall call("MPI_T_pvar_stop", ApiCall::Needs::Nothing);
  if (int err = check_pvar(call, session, handle, true)) return err;
  return handle == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_STARTSTOP;
}

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  ApiCall call("MPI_T_pvar_read", ApiCall::Needs::Nothing);
  if (int err = check_pvar(call, session, handle, false)) return err;
  if (!buf) return MPI_ERR_ARG;
  kPerformanceVariables[handle->index].read(call.world, call.rank, buf);
  return MPI_SUCCESS;
}

// Every variable is read-only.
int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void*) {
  ApiCall call("MPI_T_pvar_write", ApiCall::Needs::Nothing);
  if (int err = check_pvar(call, session, handle, false)) return err;
  return MPI_T_ERR_PVAR_NO_WRITE;
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  ApiCall call("MPI_T_pvar_reset", ApiCall::Needs::Nothing);
  if (int err = check_pvar(call, session, handle, true)) return err;
  return handle == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS : MPI_T_ERR_PVAR_NO_WRITE;
}

int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void*) {
  ApiCall call("MPI_T_pvar_readreset", ApiCall::Needs::Nothing);
  if (int err = check_pvar(call, session, handle, false)) return err;
  return MPI_T_ERR_PVAR_NO_WRITE;
}

// ---- categories: one, "simmpi", with every variable

int MPI_T_category_get_num(int* num) {
  ApiCall call("MPI_T_category_get_num", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!num) return MPI_ERR_ARG;
  *num = 1;
  return MPI_SUCCESS;
}

int MPI_T_category_get_info(int index, char* name, int* name_len, char* desc, int* desc_len,
                            int* num_cvars, int* num_pvars, int* num_categories) {
  ApiCall call("MPI_T_category_get_info", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (index != 0) return MPI_T_ERR_INVALID_INDEX;
  copy_string(kCategory, name, name_len);
  copy_string(kCategoryDesc, desc, desc_len);
  set(num_cvars, control_count());
  set(num_pvars, kPerformanceCount);
  set(num_categories, 0);
  return MPI_SUCCESS;
}

int MPI_T_category_get_index(const char* name, int* index) {
  ApiCall call("MPI_T_category_get_index", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!name || !index) return MPI_ERR_ARG;
  if (std::strcmp(name, kCategory) != 0) return MPI_T_ERR_INVALID_NAME;
  *index = 0;
  return MPI_SUCCESS;
}

namespace {

int list_indices(const char* name, int cat_index, int len, int indices[], int total) {
  ApiCall call(name, ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (cat_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (len > 0 && !indices) return MPI_ERR_ARG;
  for (int i = 0; i < len && i < total; ++i) indices[i] = i;
  return MPI_SUCCESS;
}

}  // namespace

int MPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  return list_indices("MPI_T_category_get_cvars", cat_index, len, indices, control_count());
}

int MPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  return list_indices("MPI_T_category_get_pvars", cat_index, len, indices, kPerformanceCount);
}

int MPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  return list_indices("MPI_T_category_get_categories", cat_index, len, indices, 0);
}

// The variables and categories never change during a run.
int MPI_T_category_changed(int* update_number) {
  ApiCall call("MPI_T_category_changed", ApiCall::Needs::Nothing);
  if (!initialized(call)) return MPI_T_ERR_NOT_INITIALIZED;
  if (!update_number) return MPI_ERR_ARG;
  *update_number = 0;
  return MPI_SUCCESS;
}

}  // extern "C"
