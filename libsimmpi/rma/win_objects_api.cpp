// SPDX-License-Identifier: Apache-2.0
// What a window carries besides memory (MPI-3.1 6.7.3, 6.8, 8.3.2, 11.2.6, 11.2.7): attributes
// with their keyvals (the communicators' keyval table and callbacks: the function types are the
// same) and the predefined MPI_WIN_BASE, _SIZE, _DISP_UNIT, _CREATE_FLAVOR and _MODEL, error
// handlers, names, info hints and the group.
#include <cstdio>
#include <cstring>

#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/info/info_objects.hpp"
#include "libsimmpi/rma/win_call.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;
namespace runtime = simmpi::runtime;

namespace {

// The memory model of every window: one copy of the data (MPI-3.1 11.4).
const int kModel = MPI_WIN_UNIFIED;

// A predefined window attribute: writes its value and returns true.
bool predefined(const WinRef& r, int keyval, void* value) {
  WinMember& m = r.member();
  switch (keyval) {
    case MPI_WIN_BASE:
      *static_cast<void**>(value) = m.base;
      return true;
    case MPI_WIN_SIZE:
      *static_cast<MPI_Aint**>(value) = &m.size;
      return true;
    case MPI_WIN_DISP_UNIT:
      *static_cast<int**>(value) = &m.disp_unit;
      return true;
    case MPI_WIN_CREATE_FLAVOR:
      *static_cast<const int**>(value) = r.win->flavor_ptr();
      return true;
    case MPI_WIN_MODEL:
      *static_cast<const int**>(value) = &kModel;
      return true;
    default:
      return false;
  }
}

bool is_predefined(int keyval) {
  return keyval == MPI_WIN_BASE || keyval == MPI_WIN_SIZE || keyval == MPI_WIN_DISP_UNIT ||
         keyval == MPI_WIN_CREATE_FLAVOR || keyval == MPI_WIN_MODEL;
}

// The window as an attribute holder: its values are cached on its private communicator.
AttributeHolder holder(ApiCall& call, MPI_Win win, const WinRef& r) {
  return AttributeHolder{
      win, &r.win->comm(), &is_predefined,
      [&call, r](int cls, const char* detail) { return win_fail(call, r, cls, "%s", detail); }};
}

// The hints in use (MPI-3.1 11.2.7): the defaults, with what the caller set.
Info hints_in_use(const WinMember& m) {
  Info in;
  in.set("no_locks", "false");
  in.set("accumulate_ordering", "rar,raw,war,waw");
  in.set("accumulate_ops", "same_op_no_op");
  in.set("same_size", "false");
  in.set("same_disp_unit", "false");
  for (const auto& [key, value] : m.hints) in.set(key, value);
  return in;
}

}  // namespace

extern "C" {

int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy, MPI_Win_delete_attr_function* del,
                          int* keyval, void* extra_state) {
  ApiCall call("MPI_Win_create_keyval");  // names the call in errors
  return MPI_Comm_create_keyval(copy, del, keyval, extra_state);
}

int MPI_Win_free_keyval(int* keyval) {
  ApiCall call("MPI_Win_free_keyval");
  return MPI_Comm_free_keyval(keyval);
}

int MPI_Win_set_attr(MPI_Win win, int keyval, void* value) {
  ApiCall call("MPI_Win_set_attr");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  return set_attribute(call, holder(call, win, r), keyval, value);
}

int MPI_Win_get_attr(MPI_Win win, int keyval, void* value, int* flag) {
  ApiCall call("MPI_Win_get_attr");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (!value || !flag) return win_fail(call, r, MPI_ERR_ARG, "attribute_val or flag is NULL");
  if (predefined(r, keyval, value)) {
    *flag = 1;
    return MPI_SUCCESS;
  }
  return get_attribute(call, holder(call, win, r), keyval, static_cast<void**>(value), flag);
}

int MPI_Win_delete_attr(MPI_Win win, int keyval) {
  ApiCall call("MPI_Win_delete_attr");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  return delete_attribute(call, holder(call, win, r), keyval);
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function* fn, MPI_Errhandler* errhandler) {
  ApiCall call("MPI_Win_create_errhandler");
  return MPI_Comm_create_errhandler(fn, errhandler);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  ApiCall call("MPI_Win_set_errhandler");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  MPI_Comm_errhandler_function* fn = nullptr;
  if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN) {
    UserErrhandler* u = CommObjects::get().rank(call.rank).errhandlers.find(errhandler);
    if (!u)
      return win_fail(call, r, MPI_ERR_ARG,
                      "errhandler=0x%08x is not an error handler of this "
                      "rank",
                      static_cast<unsigned>(errhandler));
    fn = u->fn;
  }
  r.member().errhandler = errhandler;
  r.member().errhandler_fn = fn;
  return MPI_SUCCESS;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  ApiCall call("MPI_Win_get_errhandler");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (!errhandler) return win_fail(call, r, MPI_ERR_ARG, "errhandler is NULL");
  *errhandler = r.member().errhandler;
  return MPI_SUCCESS;
}

// MPI-3.1 8.3.5: MPI_SUCCESS once the handler returned; MPI_ERRORS_ARE_FATAL ends the run.
int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  ApiCall call("MPI_Win_call_errhandler");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(errorcode, text, &len);
  win_fail(call, r, errorcode, "the program raised error code %d (%s)", errorcode,
           len ? text : "no description");
  return MPI_SUCCESS;
}

// Names are local: each member sees the name it set; reports show the last one set.
int MPI_Win_set_name(MPI_Win win, const char* win_name) {
  ApiCall call("MPI_Win_set_name");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (!win_name) return win_fail(call, r, MPI_ERR_ARG, "win_name is NULL");
  r.member().user_name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  r.win->set_name(strprintf("window \"%s\"", r.member().user_name.c_str()));
  return MPI_SUCCESS;
}

int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  ApiCall call("MPI_Win_get_name");
  if (win == MPI_WIN_NULL && win_name && resultlen) {  // a predefined name (MPI-4.1 7.8)
    std::snprintf(win_name, MPI_MAX_OBJECT_NAME, "MPI_WIN_NULL");
    *resultlen = static_cast<int>(std::strlen(win_name));
    return MPI_SUCCESS;
  }
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (!win_name || !resultlen) return win_fail(call, r, MPI_ERR_ARG, "an output is NULL");
  std::snprintf(win_name, MPI_MAX_OBJECT_NAME, "%s", r.member().user_name.c_str());
  *resultlen = static_cast<int>(std::strlen(win_name));
  return MPI_SUCCESS;
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
  ApiCall call("MPI_Win_set_info");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  const Info* in = InfoObjects::get().find(call.rank, info);
  if (!in)
    return win_fail(call, r, MPI_ERR_INFO, "info=0x%08x is not an info of this rank",
                    static_cast<unsigned>(info));
  for (const auto& [key, value] : in->entries) {
    bool found = false;
    for (auto& h : r.member().hints)
      if (h.first == key) h.second = value, found = true;
    if (!found) r.member().hints.emplace_back(key, value);
  }
  return MPI_SUCCESS;
}

// A new info the caller frees, with the hints in use.
int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  ApiCall call("MPI_Win_get_info");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (!info_used) return win_fail(call, r, MPI_ERR_ARG, "info_used is NULL");
  *info_used = InfoObjects::get().add(call.rank, hints_in_use(r.member()));
  return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  ApiCall call("MPI_Win_get_group");
  int err = MPI_SUCCESS;
  WinRef r = find_window(call, win, &err);
  if (!r) return err;
  if (!group) return win_fail(call, r, MPI_ERR_ARG, "group is NULL");
  *group = new_group_handle(call, group_of(r.win->comm()));
  return MPI_SUCCESS;
}

}  // extern "C"
