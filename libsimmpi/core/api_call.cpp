// SPDX-License-Identifier: Apache-2.0
// Entry bookkeeping and error reporting for the MPI functions.
#include "libsimmpi/core/api_call.hpp"

#include <cstdarg>
#include <cstring>
#include <memory>

#include "libsimmpi/core/tool_events.hpp"
#include "libsimmpi/launch/fiber_threads.hpp"
#include "runtime/core/error.hpp"
#include "runtime/observe/observation.hpp"

namespace simmpi::mpi {
namespace {

struct ErrorClass {
  int cls;
  const char* name;
  const char* text;
};

constexpr ErrorClass kClasses[] = {
    {MPI_SUCCESS, "MPI_SUCCESS", "no error"},
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer pointer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT", "invalid count argument"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype"},
    {MPI_ERR_TAG, "MPI_ERR_TAG", "invalid tag"},
    {MPI_ERR_COMM, "MPI_ERR_COMM", "invalid communicator"},
    {MPI_ERR_RANK, "MPI_ERR_RANK", "invalid rank"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT", "invalid root"},
    {MPI_ERR_GROUP, "MPI_ERR_GROUP", "invalid group"},
    {MPI_ERR_OP, "MPI_ERR_OP", "invalid operation"},
    {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid topology"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS", "invalid dimension argument"},
    {MPI_ERR_ARG, "MPI_ERR_ARG", "invalid argument of some other kind"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error"},
    {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated on receive"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER", "known error not in this list"},
    {MPI_ERR_INTERN, "MPI_ERR_INTERN", "internal MPI error"},
    {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "error code is in status"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING", "pending request"},
    {MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request"},
    {MPI_ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "collective argument not identical on all processes"},
    {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", "memory exhausted"},
    {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {MPI_ERR_INFO, "MPI_ERR_INFO", "invalid info object"},
    {MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "invalid info key"},
    {MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "invalid info value"},
    {MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "key not in the info object"},
    {MPI_ERR_CONVERSION, "MPI_ERR_CONVERSION", "error in a data conversion"},
    {MPI_ERR_SESSION, "MPI_ERR_SESSION", "invalid session"},
    {MPI_ERR_PROC_ABORTED, "MPI_ERR_PROC_ABORTED", "operation with a process that aborted"},
    {MPI_ERR_VALUE_TOO_LARGE, "MPI_ERR_VALUE_TOO_LARGE", "value too large to store"},
    {MPI_ERR_ERRHANDLER, "MPI_ERR_ERRHANDLER", "invalid error handler"},
    {MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid keyval"},
    {MPI_ERR_WIN, "MPI_ERR_WIN", "invalid window"},
    {MPI_ERR_BASE, "MPI_ERR_BASE", "invalid base address"},
    {MPI_ERR_SIZE, "MPI_ERR_SIZE", "invalid size"},
    {MPI_ERR_DISP, "MPI_ERR_DISP", "invalid displacement"},
    {MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE", "invalid lock type"},
    {MPI_ERR_ASSERT, "MPI_ERR_ASSERT", "invalid assertion"},
    {MPI_ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT", "conflicting accesses to a window"},
    {MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE", "target memory is not part of the window"},
    {MPI_ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    {MPI_ERR_FILE, "MPI_ERR_FILE", "invalid file handle"},
    {MPI_ERR_ACCESS, "MPI_ERR_ACCESS", "permission denied"},
    {MPI_ERR_AMODE, "MPI_ERR_AMODE", "error related to the amode passed to MPI_File_open"},
    {MPI_ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "invalid file name"},
    {MPI_ERR_DUP_DATAREP, "MPI_ERR_DUP_DATAREP",
     "data representation identifier already registered"},
    {MPI_ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "file exists"},
    {MPI_ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE",
     "file operation could not be completed: the file is in use"},
    {MPI_ERR_IO, "MPI_ERR_IO", "other I/O error"},
    {MPI_ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "not enough space"},
    {MPI_ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    {MPI_ERR_QUOTA, "MPI_ERR_QUOTA", "quota exceeded"},
    {MPI_ERR_READ_ONLY, "MPI_ERR_READ_ONLY", "read-only file or file system"},
    {MPI_ERR_UNSUPPORTED_DATAREP, "MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {MPI_ERR_SPAWN, "MPI_ERR_SPAWN", "could not spawn processes"},
    {MPI_ERR_PORT, "MPI_ERR_PORT", "invalid port name"},
    {MPI_ERR_SERVICE, "MPI_ERR_SERVICE", "invalid service name"},
    {MPI_ERR_NAME, "MPI_ERR_NAME", "service name not published"},
};

World& world_of_call(const char* name) {
  // A program linked against libsimmpi without its start hook (a build system that kept
  // FindMPI's MPI_<lang>_LIBRARIES but dropped MPI_<lang>_LINK_FLAGS) runs as a plain process.
  if (!World::exists())
    fatal(1, strprintf("%s was called outside a simulation: this program is linked with "
                       "libsimmpi but was not started by simmpi. Link it with simmpicc, "
                       "simmpicxx or simmpif90, or add the flags `simmpicc -showme:link` prints "
                       "to its link line (with CMake's FindMPI: link the target MPI::MPI_C or "
                       "MPI::MPI_CXX, or add ${MPI_CXX_LINK_FLAGS} beside ${MPI_CXX_LIBRARIES}); "
                       "see docs/build-systems.md",
                       name));
  if (!on_simulation_thread())
    fatal(1, strprintf("%s called from a thread that is not a rank's: OpenMP worker threads run "
                       "on the host, outside the simulation; call MPI from outside the parallel "
                       "region, from its master thread, or from a pthread of the rank",
                       name));
  return World::get();
}

// The calls any thread may make at any thread level (MPI-3.1 12.4.3 and 8.7).
bool is_any_thread_call(const char* name) {
  for (const char* c :
       {"MPI_Initialized", "MPI_Finalized", "MPI_Query_thread", "MPI_Is_thread_main"})
    if (std::strcmp(name, c) == 0) return true;
  return false;
}

const ErrorClass* find_class(int cls) {
  for (const auto& c : kClasses)
    if (c.cls == cls) return &c;
  return nullptr;
}

}  // namespace

const char* error_class_name(int cls) {
  const ErrorClass* c = find_class(cls);
  return c ? c->name : "MPI_ERR_UNKNOWN";
}

const char* error_class_text(int cls) {
  const ErrorClass* c = find_class(cls);
  return c ? c->text : "unknown error";
}

namespace {

// ObservedCalls not in use, linked by next_spare: those of the program threads that ended. All of
// them, to free them at exit.
ObservedCall* spare_observed_calls = nullptr;
std::vector<std::unique_ptr<ObservedCall>> all_observed_calls;

}  // namespace

// Out of line: once per program process.
[[gnu::noinline]] ObservedCall* ApiCall::take_observed_call(runtime::Process& p) {
  ObservedCall* o = spare_observed_calls;
  if (o) {
    spare_observed_calls = o->next_spare;
  } else {
    o = all_observed_calls.emplace_back(std::make_unique<ObservedCall>()).get();
  }
  runtime::CallFacts& f = o->facts;
  f.process = p.id();
  f.rank = rank;
  f.ordinal = p.ordinal();
  p.observed_call = o;
  return o;
}

void ObservedCall::clear_lists() {
  if (runtime::Observation::wants_messages()) {
    sent.clear();
    received.clear();
    probed.clear();
  }
  if (runtime::Observation::wants_records()) {
    facts.record_kind = -1;  // set only for observers that want records
    record.clear();
    record_outs.clear();
    records_after.clear();
  }
}

// Inlined into the constructor: it runs for every call while someone observes.
[[gnu::always_inline]] inline void ApiCall::begin_observed(runtime::Process& p) {
  auto* o = static_cast<ObservedCall*>(p.observed_call);
  if (!o) {
    if (p.ordinal() < 0) return;  // the library's own auxiliary processes
    o = take_observed_call(p);
  }
  observed_ = o;
  owns_observed_ = true;
  runtime::CallFacts& f = o->facts;
  f.name = name;
  // After enter_library, which makes the rank's own code since its last call owed time: the
  // call begins where that code ends, on the rank's own clock.
  f.begin = world.scheduler().local_now(p);
  o->blocked_at_begin = p.waited_time();
  // What the call notes as it goes, as a fresh one would be (the call before noted its own),
  // keeping the capacity of its lists and the communicator name it holds (see
  // ObservedCall::comm_name).
  f.bytes = -1;
  f.peer = f.tag = -1;
  o->payloads = 0;
  f.comm_leader = f.comm_context = -1;
  f.comm_size = 0;
  if (runtime::Observation::wants_lists()) o->clear_lists();
}

// Reports name the outermost call: MPI_Sendrecv, not the MPI_Wait it uses inside.
ApiCall::ApiCall(const char* call_name, Needs needs, Settle settle)
    : world(world_of_call(call_name)),
      rank(world.current_rank()),
      name(world.scheduler().current()->current_call ? world.scheduler().current()->current_call
                                                     : call_name) {
  runtime::Process* p = world.scheduler().current();
  saved_call_ = p->current_call;
  p->current_call = name;
  world.scheduler().enter_library();
  if (saved_call_)
    observed_ = static_cast<ObservedCall*>(p->observed_call);
  else if (runtime::Observation::listening())
    begin_observed(*p);
  if (settle == Settle::Now)
    world.scheduler().settle();  // the rank's computations end first
  else if (settle == Settle::Later)
    world.scheduler().catch_up();
  if (needs == Needs::Init) {
    const RankState& st = world.rank(rank);
    if (!st.initialized && st.sessions == 0)
      fatal(1, strprintf("[t=%s r%d] %s called before MPI_Init (or MPI_Session_init)",
                         world.now().to_string().c_str(), rank, name));
    if (st.finalized && st.sessions == 0)
      fatal(1, strprintf("[t=%s r%d] %s called after MPI_Finalize", world.now().to_string().c_str(),
                         rank, name));
  }
  if (!saved_call_ && p->ordinal() >= 0 && p->id() != world.rank(rank).main_process)
    check_thread_level();
}

void ApiCall::check_thread_level() {
  const RankState& st = world.rank(rank);
  if (!st.initialized || st.thread_level >= MPI_THREAD_SERIALIZED || is_any_thread_call(name))
    return;
  const runtime::Process& p = *world.scheduler().current();
  fail(MPI_COMM_WORLD, MPI_ERR_OTHER,
       "called from %s, not from the thread that initialized MPI (%s), but MPI_Init_thread "
       "provided %s, under which only that thread may call MPI (MPI-3.1 12.4.3); ask for "
       "MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE",
       p.name().c_str(), world.scheduler().process(st.main_process).name().c_str(),
       st.thread_level == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED" : "MPI_THREAD_SINGLE");
}

// Inlined into the destructor, as begin_observed is into the constructor.
[[gnu::always_inline]] inline void ApiCall::notify_observers() {
  runtime::Scheduler& s = world.scheduler();
  ObservedCall& o = *observed_;
  o.facts.end = s.local_now();
  o.facts.blocked = s.current()->waited_time() - o.blocked_at_begin;
  runtime::Observation::call(o.facts);
}

ApiCall::~ApiCall() {
  if (owns_observed_) {
    notify_observers();
  }
  world.scheduler().leave_library();
  world.scheduler().current()->current_call = saved_call_;
  // A tool's event callbacks run on the rank's own fiber as its outermost call returns.
  if (!saved_call_ && has_tool_events(rank) && world.scheduler().current()->ordinal() >= 0)
    deliver_tool_events(world, rank);
}

int ApiCall::fail(MPI_Comm comm_handle, int cls, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char detail[1024];
  std::vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  Communicator* c = world.find_comm(comm_handle, rank);
  if (!c) {
    c = &world.world_comm_of(rank);
    comm_handle = MPI_COMM_WORLD;
  }
  int me = c->comm_rank(rank);
  return raise(c->errhandler(me), c->errhandler_function(me), comm_handle, cls, detail);
}

int ApiCall::raise(MPI_Errhandler handler, MPI_Comm_errhandler_function* fn, int object, int cls,
                   const char* detail) {
  if (handler == MPI_ERRORS_RETURN) return cls;
  if (fn) {
    // A user handler sees the object and the code, may call MPI, and if it returns the failed
    // call returns the code.
    int code = cls;
    fn(&object, &code);
    return cls;
  }
  // MPI_ERRORS_ABORT (MPI-4.1 9.3) aborts the communicator's processes; simmpi ends the job, as
  // MPICH does, and says which handler did it.
  const bool abort = handler == MPI_ERRORS_ABORT;
  fatal(1, strprintf("[t=%s r%d] %s: %s (%s)%s", world.scheduler().local_now().to_string().c_str(),
                     rank, name, detail, error_class_name(cls),
                     abort ? "; MPI_ERRORS_ABORT ends the job" : ""));
}

void ApiCall::note_message(World& w, MessageSide side, const runtime::MessageLink& m) {
  runtime::Process* p = w.scheduler().current();  // none in the scheduler's own events
  auto* o = p ? static_cast<ObservedCall*>(p->observed_call) : nullptr;
  if (!o) return;
  (side == MessageSide::Sent       ? o->sent
   : side == MessageSide::Received ? o->received
                                   : o->probed)
      .push_back(m);
}

void ApiCall::release_observed_call(runtime::Process& p) {
  auto* o = static_cast<ObservedCall*>(p.observed_call);
  if (!o) return;
  p.observed_call = nullptr;
  o->next_spare = spare_observed_calls;
  spare_observed_calls = o;
}

void ApiCall::copy_comm_name(const Communicator& c) {
  observed_->comm_name = c.name();
  observed_->comm_name_stamp = observed_->facts.comm_name_stamp = c.name_stamp();
}

Communicator* ApiCall::comm_failed(MPI_Comm h) {
  if (h == MPI_COMM_NULL)
    fail(MPI_COMM_WORLD, MPI_ERR_COMM, "comm is MPI_COMM_NULL");
  else if (world.has_freed_comm(h, rank))
    fail(MPI_COMM_WORLD, MPI_ERR_COMM, "comm=0x%08x was freed by this rank",
         static_cast<unsigned>(h));
  else
    fail(MPI_COMM_WORLD, MPI_ERR_COMM, "comm=0x%08x is not a communicator of this rank",
         static_cast<unsigned>(h));
  return nullptr;
}

// Communication needs a committed type (MPI-3.1 4.1.9).
const Datatype* ApiCall::derived_datatype(MPI_Datatype h, MPI_Comm c) {
  const Datatype* t = find_datatype(h, rank);
  if (!t && h == MPI_DATATYPE_NULL) {
    fail(c, MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL");
  } else if (!t) {
    fail(c, MPI_ERR_TYPE,
         "datatype 0x%08x is not a datatype of this rank (never created, or "
         "freed with MPI_Type_free)",
         static_cast<unsigned>(h));
  } else if (!is_committed(*t)) {
    fail(c, MPI_ERR_TYPE, "%s is not committed; call MPI_Type_commit before using it", t->name);
    return nullptr;
  }
  return t;
}

}  // namespace simmpi::mpi
