// SPDX-License-Identifier: Apache-2.0
// Error handlers on files (MPI-3.1 8.3.3 and 13.7): MPI_File_create_errhandler,
// _set_errhandler, _get_errhandler and _call_errhandler. A file's handler is MPI_ERRORS_RETURN
// unless set; setting one on MPI_FILE_NULL sets the process's default, which files opened later
// take and which MPI_File_open and MPI_File_delete raise their errors under.
#include <cstring>

#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/io/file_call.hpp"

using namespace simmpi::mpi;

namespace {

// The function of handler `h` (nullptr for the predefined ones); false if `h` is none.
bool resolve(ApiCall& call, MPI_Errhandler h, MPI_Comm_errhandler_function** fn) {
  *fn = nullptr;
  if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT) return true;
  UserErrhandler* u = CommObjects::get().rank(call.rank).errhandlers.find(h);
  if (u) *fn = u->fn;
  return u != nullptr;
}

}  // namespace

extern "C" {

int MPI_File_create_errhandler(MPI_File_errhandler_function* fn, MPI_Errhandler* errhandler) {
  ApiCall call("MPI_File_create_errhandler");
  if (!fn || !errhandler)
    return file_null_fail(call, MPI_ERR_ARG, "file_errhandler_fn or errhandler is NULL");
  *errhandler = CommObjects::get().rank(call.rank).errhandlers.add(
      UserErrhandler{reinterpret_cast<MPI_Comm_errhandler_function*>(fn)});
  return MPI_SUCCESS;
}

int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  ApiCall call("MPI_File_set_errhandler");
  MPI_Comm_errhandler_function* fn = nullptr;
  if (file == MPI_FILE_NULL) {
    if (!resolve(call, errhandler, &fn))
      return file_null_fail(call, MPI_ERR_ERRHANDLER,
                            "errhandler=0x%08x is not an error handler of this rank",
                            static_cast<unsigned>(errhandler));
    Files::get().default_errhandler(call.rank) = errhandler;
    Files::get().default_errhandler_fn(call.rank) = fn;
    return MPI_SUCCESS;
  }
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, file, &err);
  if (!r) return err;
  if (!resolve(call, errhandler, &fn))
    return file_fail(call, r, MPI_ERR_ERRHANDLER,
                     "errhandler=0x%08x is not an error handler of this rank",
                     static_cast<unsigned>(errhandler));
  r.member().errhandler = errhandler;
  r.member().errhandler_fn = fn;
  return MPI_SUCCESS;
}

int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler) {
  ApiCall call("MPI_File_get_errhandler");
  if (!errhandler) return file_null_fail(call, MPI_ERR_ARG, "errhandler is NULL");
  if (file == MPI_FILE_NULL) {
    *errhandler = Files::get().default_errhandler(call.rank);
    return MPI_SUCCESS;
  }
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, file, &err);
  if (!r) return err;
  *errhandler = r.member().errhandler;
  return MPI_SUCCESS;
}

// MPI-3.1 8.3.5: MPI_SUCCESS once the handler returned; MPI_ERRORS_ARE_FATAL ends the run.
int MPI_File_call_errhandler(MPI_File fh, int errorcode) {
  ApiCall call("MPI_File_call_errhandler");
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(errorcode, text, &len);
  if (fh == MPI_FILE_NULL) {
    file_null_fail(call, errorcode, "the program raised error code %d (%s)", errorcode,
                   len ? text : "no description");
    return MPI_SUCCESS;
  }
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  file_fail(call, r, errorcode, "the program raised error code %d (%s)", errorcode,
            len ? text : "no description");
  return MPI_SUCCESS;
}

}  // extern "C"
