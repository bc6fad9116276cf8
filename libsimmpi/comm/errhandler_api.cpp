// SPDX-License-Identifier: Apache-2.0
// Error handlers on communicators: user handlers (MPI_Comm_create_errhandler), setting, getting,
// freeing and invoking them. ApiCall::fail calls a communicator's handler when a call fails.
#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/core/api_call.hpp"

using namespace simmpi::mpi;

namespace {

// Resolves `h` into its function (nullptr for the predefined handlers). False after raising
// MPI_ERR_ARG on `comm`.
bool resolve(ApiCall& call, MPI_Comm comm, MPI_Errhandler h, MPI_Comm_errhandler_function** fn,
             int* err) {
  *fn = nullptr;
  if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT) return true;
  if (UserErrhandler* u = CommObjects::get().rank(call.rank).errhandlers.find(h)) {
    *fn = u->fn;
    return true;
  }
  *err =
      call.fail(comm, MPI_ERR_ERRHANDLER, "errhandler=0x%08x is not an error handler of this rank",
                static_cast<unsigned>(h));
  return false;
}

int create_errhandler(const char* name, MPI_Comm_errhandler_function* fn, MPI_Errhandler* out) {
  ApiCall call(name);
  if (!fn || !out) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "function or errhandler is NULL");
  *out = CommObjects::get().rank(call.rank).errhandlers.add(UserErrhandler{fn});
  return MPI_SUCCESS;
}

int set_errhandler(const char* name, MPI_Comm comm, MPI_Errhandler h) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  MPI_Comm_errhandler_function* fn = nullptr;
  int err = MPI_SUCCESS;
  if (!resolve(call, comm, h, &fn, &err)) return err;
  c->set_errhandler(c->comm_rank(call.rank), h, fn);
  return MPI_SUCCESS;
}

int get_errhandler(const char* name, MPI_Comm comm, MPI_Errhandler* out) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  *out = c->errhandler(c->comm_rank(call.rank));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler) {
  return create_errhandler("MPI_Comm_create_errhandler", fn, errhandler);
}
int MPI_Errhandler_create(MPI_Handler_function* fn, MPI_Errhandler* errhandler) {
  return create_errhandler("MPI_Errhandler_create", fn, errhandler);
}
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return set_errhandler("MPI_Comm_set_errhandler", comm, errhandler);
}
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return set_errhandler("MPI_Errhandler_set", comm, errhandler);
}
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return get_errhandler("MPI_Comm_get_errhandler", comm, errhandler);
}
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return get_errhandler("MPI_Errhandler_get", comm, errhandler);
}

// The handler stays usable by the communicators it is set on (MPI-3.1 8.3.4), and
// MPI_Comm_get_errhandler may hand it out again, so the table keeps it: a program makes few.
int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  ApiCall call("MPI_Errhandler_free", ApiCall::Needs::Nothing);  // any time (MPI-4.1 11.4.1)
  MPI_Comm_errhandler_function* fn = nullptr;
  int err = MPI_SUCCESS;
  if (!errhandler) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "errhandler is NULL");
  if (!resolve(call, MPI_COMM_WORLD, *errhandler, &fn, &err)) return err;
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

// MPI-3.1 8.3.5: returns MPI_SUCCESS once the handler returned; MPI_ERRORS_ARE_FATAL ends the run.
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  ApiCall call("MPI_Comm_call_errhandler");
  if (!call.comm(comm)) return MPI_ERR_COMM;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(errorcode, text, &len);
  call.fail(comm, errorcode, "the program raised error code %d (%s)", errorcode,
            len ? text : "no description");
  return MPI_SUCCESS;
}

}  // extern "C"
