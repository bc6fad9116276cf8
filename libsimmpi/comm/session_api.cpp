// SPDX-License-Identifier: Apache-2.0
// Sessions (MPI-4.1 11.3): MPI_Session_init and _finalize, the process sets, the session's info
// and error handlers, and MPI_Group_from_session_pset. A session is the rank's own object; while
// one is open the rank may call MPI without MPI_Init (ApiCall), and a rank must finalize its
// sessions before it returns from main (the launcher checks). The process sets are the two the
// standard names: "mpi://WORLD" (every rank of the job) and "mpi://SELF".
#include <strings.h>

#include <cstring>
#include <string>

#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/info/info_objects.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;

namespace {

constexpr const char* kPsets[] = {"mpi://WORLD", "mpi://SELF"};
constexpr int kNumPsets = 2;

// The caller's session `h`, or nullptr after raising MPI_ERR_SESSION (on MPI_COMM_SELF: no
// session to raise it on).
Session* find_session(ApiCall& call, MPI_Session h, int* err) {
  if (Session* s = CommObjects::get().rank(call.rank).sessions.find(h)) return s;
  *err = call.fail(MPI_COMM_SELF, MPI_ERR_SESSION,
                   h == MPI_SESSION_NULL ? "session is MPI_SESSION_NULL"
                                         : "session=0x%08x is not an open session of this rank",
                   static_cast<unsigned>(h));
  return nullptr;
}

// Raises `cls` through the session's error handler.
int session_fail(ApiCall& call, MPI_Session h, const Session& s, int cls, const std::string& what) {
  return call.raise(s.errhandler, s.errhandler_fn, h, cls, what.c_str());
}

// The error handler `h` as a session's: its function (nullptr for the predefined ones). False
// after raising MPI_ERR_ERRHANDLER on MPI_COMM_SELF.
bool resolve_errhandler(ApiCall& call, MPI_Errhandler h, MPI_Comm_errhandler_function** fn,
                        int* err) {
  *fn = nullptr;
  if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT) return true;
  if (UserErrhandler* u = CommObjects::get().rank(call.rank).errhandlers.find(h)) {
    *fn = u->fn;
    return true;
  }
  *err =
      call.fail(MPI_COMM_SELF, MPI_ERR_ERRHANDLER,
                "errhandler=0x%08x is not an error handler of this rank", static_cast<unsigned>(h));
  return false;
}

// The index of `name` among kPsets, or -1. Any case, as MPICH reads them ("mpi://world").
int pset_index(const char* name) {
  for (int i = 0; i < kNumPsets; ++i)
    if (name && !strcasecmp(name, kPsets[i])) return i;
  return -1;
}

int unknown_pset(ApiCall& call, MPI_Session h, const Session& s, const char* name) {
  return session_fail(call, h, s, MPI_ERR_ARG,
                      strprintf("pset_name=\"%s\" is not a process set; simmpi has \"%s\" and "
                                "\"%s\"",
                                name ? name : "(null)", kPsets[0], kPsets[1]));
}

// The thread level a session's info asks for ("thread_level"), as granted: every level is.
// Empty for a value that names no level.
std::string asked_thread_level(ApiCall& call, MPI_Info info) {
  const Info* i = info == MPI_INFO_NULL ? nullptr : InfoObjects::get().find(call.rank, info);
  const auto* e = i ? i->find("thread_level") : nullptr;
  if (!e) return "MPI_THREAD_MULTIPLE";
  for (const char* level :
       {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"})
    if (e->second == level) return level;
  return "";
}

}  // namespace

extern "C" {

int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  ApiCall call("MPI_Session_init", ApiCall::Needs::Nothing);
  int err = MPI_SUCCESS;
  Session s;
  if (!resolve_errhandler(call, errhandler, &s.errhandler_fn, &err)) return err;
  s.errhandler = errhandler;
  s.thread_level = asked_thread_level(call, info);
  // The errors of this call go to the handler it is given (MPI-4.1 11.3.1).
  if (s.thread_level.empty())
    return session_fail(call, MPI_SESSION_NULL, s, MPI_ERR_ARG,
                        "info key thread_level names no thread level (MPI_THREAD_SINGLE, "
                        "_FUNNELED, _SERIALIZED or _MULTIPLE)");
  if (info != MPI_INFO_NULL && !InfoObjects::get().find(call.rank, info))
    return session_fail(
        call, MPI_SESSION_NULL, s, MPI_ERR_INFO,
        strprintf("info=0x%08x is not an info object of this rank", static_cast<unsigned>(info)));
  if (!session) return session_fail(call, MPI_SESSION_NULL, s, MPI_ERR_ARG, "session is NULL");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::SessionInit);
  rec.out(session);  // read when the call returns
  *session = CommObjects::get().rank(call.rank).sessions.add(s);
  ++call.world.rank(call.rank).sessions;
  return MPI_SUCCESS;
}

int MPI_Session_finalize(MPI_Session* session) {
  ApiCall call("MPI_Session_finalize");
  int err = MPI_SUCCESS;
  if (!session) return call.fail(MPI_COMM_SELF, MPI_ERR_ARG, "session is NULL");
  if (!find_session(call, *session, &err)) return err;
  CallRecord(call, simmpi::runtime::call_trace::Kind::SessionFinalize).value(*session);
  CommObjects::get().rank(call.rank).sessions.remove(*session);
  call.world.rank(call.rank).session_bsend.erase(*session);  // messages in it keep it alive
  --call.world.rank(call.rank).sessions;
  *session = MPI_SESSION_NULL;
  return MPI_SUCCESS;
}

int MPI_Session_get_num_psets(MPI_Session session, MPI_Info, int* npset_names) {
  ApiCall call("MPI_Session_get_num_psets");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  if (!npset_names) return session_fail(call, session, *s, MPI_ERR_ARG, "npset_names is NULL");
  *npset_names = kNumPsets;
  return MPI_SUCCESS;
}

// pset_len 0 asks for the length (with the terminating NUL); a shorter buffer gets the name cut.
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info, int n, int* pset_len, char* pset_name) {
  ApiCall call("MPI_Session_get_nth_pset");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  if (n < 0 || n >= kNumPsets)
    return session_fail(
        call, session, *s, MPI_ERR_ARG,
        strprintf("n=%d not in [0,%d): the session has %d process sets", n, kNumPsets, kNumPsets));
  if (!pset_len) return session_fail(call, session, *s, MPI_ERR_ARG, "pset_len is NULL");
  int need = static_cast<int>(std::strlen(kPsets[n])) + 1;
  if (*pset_len > 0) {
    if (!pset_name) return session_fail(call, session, *s, MPI_ERR_ARG, "pset_name is NULL");
    std::snprintf(pset_name, static_cast<std::size_t>(*pset_len), "%s", kPsets[n]);
  }
  *pset_len = need;
  return MPI_SUCCESS;
}

int MPI_Session_get_info(MPI_Session session, MPI_Info* info_used) {
  ApiCall call("MPI_Session_get_info");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  if (!info_used) return session_fail(call, session, *s, MPI_ERR_ARG, "info_used is NULL");
  Info i;
  i.set("thread_level", s->thread_level);
  i.set("mpi_thread_support_level", "MPI_THREAD_MULTIPLE");
  *info_used = InfoObjects::get().add(call.rank, std::move(i));
  return MPI_SUCCESS;
}

int MPI_Session_get_pset_info(MPI_Session session, const char* pset_name, MPI_Info* info) {
  ApiCall call("MPI_Session_get_pset_info");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  int k = pset_index(pset_name);
  if (k < 0) return unknown_pset(call, session, *s, pset_name);
  if (!info) return session_fail(call, session, *s, MPI_ERR_ARG, "info is NULL");
  Info i;
  i.set("mpi_size", std::to_string(k == 0 ? call.world.size() : 1));
  *info = InfoObjects::get().add(call.rank, std::move(i));
  return MPI_SUCCESS;
}

int MPI_Group_from_session_pset(MPI_Session session, const char* pset_name, MPI_Group* newgroup) {
  ApiCall call("MPI_Group_from_session_pset");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  int k = pset_index(pset_name);
  if (k < 0) return unknown_pset(call, session, *s, pset_name);
  if (!newgroup) return session_fail(call, session, *s, MPI_ERR_ARG, "newgroup is NULL");
  Group g;
  if (k == 0)
    g.size = call.world.size();  // the identity
  else
    g = make_group({call.rank});
  g.session = session;
  *newgroup = new_group_handle(call, std::move(g));
  return MPI_SUCCESS;
}

int MPI_Session_create_errhandler(MPI_Session_errhandler_function* fn, MPI_Errhandler* errhandler) {
  ApiCall call("MPI_Session_create_errhandler", ApiCall::Needs::Nothing);
  if (!fn || !errhandler)
    return call.fail(MPI_COMM_SELF, MPI_ERR_ARG, "function or errhandler is NULL");
  // One table for every kind of handler: a session handler is called as a communicator's is,
  // with a pointer to the (integer) handle and the code.
  *errhandler = CommObjects::get().rank(call.rank).errhandlers.add(
      UserErrhandler{reinterpret_cast<MPI_Comm_errhandler_function*>(fn)});
  return MPI_SUCCESS;
}

int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) {
  ApiCall call("MPI_Session_set_errhandler");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  MPI_Comm_errhandler_function* fn = nullptr;
  if (!resolve_errhandler(call, errhandler, &fn, &err)) return err;
  s->errhandler = errhandler;
  s->errhandler_fn = fn;
  return MPI_SUCCESS;
}

int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler* errhandler) {
  ApiCall call("MPI_Session_get_errhandler");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  if (!errhandler) return session_fail(call, session, *s, MPI_ERR_ARG, "errhandler is NULL");
  *errhandler = s->errhandler;
  return MPI_SUCCESS;
}

// MPI_SUCCESS once the handler returned; MPI_ERRORS_ARE_FATAL ends the run.
int MPI_Session_call_errhandler(MPI_Session session, int errorcode) {
  ApiCall call("MPI_Session_call_errhandler");
  int err = MPI_SUCCESS;
  Session* s = find_session(call, session, &err);
  if (!s) return err;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(errorcode, text, &len);
  session_fail(
      call, session, *s, errorcode,
      strprintf("the program raised error code %d (%s)", errorcode, len ? text : "no description"));
  return MPI_SUCCESS;
}

MPI_Fint MPI_Session_c2f(MPI_Session session) {
  return session;
}

MPI_Session MPI_Session_f2c(MPI_Fint session) {
  return session;
}

}  // extern "C"
