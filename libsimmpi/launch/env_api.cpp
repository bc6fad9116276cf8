// SPDX-License-Identifier: Apache-2.0
// MPI environment management: initialization, ranks and sizes, clocks, names. (Error handlers
// and error strings are in libsimmpi/comm/.)
#include <cstdio>
#include <cstring>

#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/comm/spawn.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::fatal;
using simmpi::strprintf;

namespace {

int init(const char* name, int required, int* provided) {
  ApiCall call(name, ApiCall::Needs::Nothing);
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Init);
  RankState& st = call.world.rank(call.rank);
  if (st.initialized)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI is already initialized on this rank");
  st.initialized = true;
  st.main_process = call.world.scheduler().current()->id();
  // Every level up to MPI_THREAD_MULTIPLE holds: the threads a rank starts are fibers of the
  // rank (launch/thread_interpose.cpp), and a fiber blocked in MPI blocks only itself. ApiCall
  // enforces the lower levels.
  st.thread_level = required < MPI_THREAD_SINGLE     ? MPI_THREAD_SINGLE
                    : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
                                                     : required;
  if (provided) *provided = st.thread_level;
  connect_to_parents(call);  // a spawned rank's intercommunicator to its parents
  return MPI_SUCCESS;
}

void copy_out(const char* text, char* out, int* len, int max) {
  std::snprintf(out, static_cast<std::size_t>(max), "%s", text);
  *len = static_cast<int>(std::strlen(out));
}

}  // namespace

extern "C" {

int MPI_Init(int*, char***) {
  return init("MPI_Init", MPI_THREAD_SINGLE, nullptr);
}

int MPI_Init_thread(int*, char***, int required, int* provided) {
  return init("MPI_Init_thread", required, provided);
}

int MPI_Initialized(int* flag) {
  ApiCall call("MPI_Initialized", ApiCall::Needs::Nothing);
  *flag = call.world.rank(call.rank).initialized;
  return MPI_SUCCESS;
}

int MPI_Finalize(void) {
  ApiCall call("MPI_Finalize");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Finalize);
  // Libraries hang clean-up code on MPI_COMM_SELF: its attributes are deleted first, while MPI
  // still works (MPI-3.1 8.7.1).
  Communicator& self = *call.world.find_comm(MPI_COMM_SELF, call.rank);
  int err = delete_attributes(call, MPI_COMM_SELF, &self);
  if (err != MPI_SUCCESS)
    return call.fail(MPI_COMM_SELF, err,
                     "an attribute delete callback on MPI_COMM_SELF returned %d", err);
  call.world.rank(call.rank).finalized = true;
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  ApiCall call("MPI_Finalized", ApiCall::Needs::Nothing);
  *flag = call.world.rank(call.rank).finalized;
  return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  ApiCall call("MPI_Abort", ApiCall::Needs::Nothing);
  Communicator* c = call.world.find_comm(comm, call.rank);
  // An abort never looks like success to a script: code 0 becomes exit status 1.
  int status = errorcode & 0xff ? errorcode & 0xff : 1;
  fatal(status, strprintf("[t=%s r%d] MPI_Abort(%s, %d) called; all ranks are stopped",
                          call.world.now().to_string().c_str(), call.rank,
                          c ? c->name().c_str() : "?", errorcode));
}

int MPI_Query_thread(int* provided) {
  ApiCall call("MPI_Query_thread");
  *provided = call.world.rank(call.rank).thread_level;
  return MPI_SUCCESS;
}

// May be called from any thread at any level (MPI-3.1 12.4.3). The main thread is the one that
// initialized MPI; before that, the rank's own fiber.
int MPI_Is_thread_main(int* flag) {
  ApiCall call("MPI_Is_thread_main", ApiCall::Needs::Nothing);
  const RankState& st = call.world.rank(call.rank);
  const simmpi::runtime::Process& me = *call.world.scheduler().current();
  *flag = st.main_process >= 0 ? me.id() == st.main_process : me.ordinal() == 0;
  return MPI_SUCCESS;
}

// MPI_Comm_rank and MPI_Comm_size read nothing that depends on simulated time, so they leave the
// rank's owed own-code time owed (Settle::Ahead) for its next call to settle: the rank's clock is
// the same, with no trip through the event queue. At start-up every rank calls both while a
// million others are due at time 0, and each settle there cost a yield and a cache-cold resume.
int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  ApiCall call("MPI_Comm_rank", ApiCall::Needs::Init, ApiCall::Settle::Ahead);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  *rank = c->comm_rank(call.rank);
  return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  ApiCall call("MPI_Comm_size", ApiCall::Needs::Init, ApiCall::Settle::Ahead);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  *size = c->size();
  return MPI_SUCCESS;
}

int MPI_Get_processor_name(char* name, int* resultlen) {
  ApiCall call("MPI_Get_processor_name", ApiCall::Needs::Nothing);
  std::string node = strprintf("node%d", call.world.platform().node_of(call.rank));
  copy_out(node.c_str(), name, resultlen, MPI_MAX_PROCESSOR_NAME);
  return MPI_SUCCESS;
}

int MPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Get_library_version(char* version, int* resultlen) {
  copy_out("simmpi (simulated MPI 4.1)", version, resultlen, MPI_MAX_LIBRARY_VERSION_STRING);
  return MPI_SUCCESS;
}

double MPI_Wtime(void) {
  ApiCall call("MPI_Wtime", ApiCall::Needs::Nothing);
  call.world.spend(call.world.params().poll_cost);
  return call.world.now().seconds();
}

double MPI_Wtick(void) {
  return 1e-12;
}

int simmpi_rank(void) {
  simmpi::runtime::Scheduler* s = simmpi::runtime::Scheduler::instance();
  return s && s->current() ? s->current()->owner() : -1;
}

double simmpi_now(void) {
  World& w = World::get();
  simmpi::runtime::ScopedLibraryCall library(w.scheduler(), "simmpi_now");
  w.scheduler().settle();  // the calling rank's own time, its computations included
  return w.now().seconds();
}

}  // extern "C"
