// SPDX-License-Identifier: Apache-2.0
// Error classes, codes and their strings: MPI_Error_string and MPI_Error_class, and the
// program's own classes and codes (MPI_Add_error_class/code/string, MPI-3.1 section 8.5; their
// removal, MPI_Remove_error_class/code/string, MPI-4.1 9.5). A removed value names nothing
// again; values are not reused, so MPI_LASTUSEDCODE still only grows.
#include <cstdio>
#include <cstring>

#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;

namespace {

bool is_predefined_class(int code) {
  return code >= MPI_SUCCESS && code <= MPI_T_ERR_MEMORY;
}

// The program's class or code `code` on this rank, or nullptr (none, or removed).
UserError* user_error(RankObjects* objects, int code) {
  if (!objects || code < kFirstUserError) return nullptr;
  auto i = static_cast<std::size_t>(code - kFirstUserError);
  return i < objects->errors.size() && !objects->errors[i].removed ? &objects->errors[i] : nullptr;
}

// A new class (error_class < 0) or a new code of `error_class`. Codes of the program's own
// classes are counted in their class, so that removing a class checks a count instead of every
// value ever made (a program may add and remove codes millions of times).
int add_error(RankObjects& objects, int error_class) {
  int code = kFirstUserError + static_cast<int>(objects.errors.size());
  if (UserError* c = user_error(&objects, error_class)) ++c->live_codes;
  objects.errors.push_back(UserError{error_class < 0 ? code : error_class, ""});
  objects.last_used_code = code;
  return code;
}

void copy_out(const char* text, char* out, int* len) {
  std::snprintf(out, MPI_MAX_ERROR_STRING, "%s", text);
  *len = static_cast<int>(std::strlen(out));
}

}  // namespace

extern "C" {

int MPI_Add_error_class(int* errorclass) {
  ApiCall call("MPI_Add_error_class");
  if (!errorclass) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "errorclass is NULL");
  *errorclass = add_error(CommObjects::get().rank(call.rank), -1);
  return MPI_SUCCESS;
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  ApiCall call("MPI_Add_error_code");
  RankObjects& objects = CommObjects::get().rank(call.rank);
  UserError* e = user_error(&objects, errorclass);
  bool is_class = is_predefined_class(errorclass) || (e && e->error_class == errorclass);
  if (!is_class)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "errorclass=%d is not an error class",
                     errorclass);
  if (!errorcode) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "errorcode is NULL");
  *errorcode = add_error(objects, errorclass);
  return MPI_SUCCESS;
}

int MPI_Add_error_string(int errorcode, const char* string) {
  ApiCall call("MPI_Add_error_string");
  UserError* e = user_error(CommObjects::get().find_rank(call.rank), errorcode);
  if (!e)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "errorcode=%d was not made by "
                     "MPI_Add_error_class or MPI_Add_error_code on this rank",
                     errorcode);
  if (!string || std::strlen(string) >= MPI_MAX_ERROR_STRING)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "string is NULL or longer than "
                     "MPI_MAX_ERROR_STRING-1 (%d) characters",
                     MPI_MAX_ERROR_STRING - 1);
  e->text = string;
  e->has_text = true;
  return MPI_SUCCESS;
}

int MPI_Remove_error_class(int errorclass) {
  ApiCall call("MPI_Remove_error_class");
  RankObjects& objects = CommObjects::get().rank(call.rank);
  UserError* e = user_error(&objects, errorclass);
  if (!e || e->error_class != errorclass)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "errorclass=%d is not an error class made by MPI_Add_error_class on this "
                     "rank (or it was removed)",
                     errorclass);
  if (e->live_codes > 0)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "error class %d still has error codes; remove them first with "
                     "MPI_Remove_error_code (MPI-4.1 9.5)",
                     errorclass);
  e->removed = true;
  return MPI_SUCCESS;
}

int MPI_Remove_error_code(int errorcode) {
  ApiCall call("MPI_Remove_error_code");
  RankObjects* objects = CommObjects::get().find_rank(call.rank);
  UserError* e = user_error(objects, errorcode);
  if (!e || e->error_class == errorcode)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "errorcode=%d is not an error code made by MPI_Add_error_code on this rank "
                     "(or it was removed)",
                     errorcode);
  if (e->has_text)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "error code %d still has its string; remove it first with "
                     "MPI_Remove_error_string (MPI-4.1 9.5)",
                     errorcode);
  e->removed = true;
  if (UserError* c = user_error(objects, e->error_class)) --c->live_codes;
  return MPI_SUCCESS;
}

int MPI_Remove_error_string(int errorcode) {
  ApiCall call("MPI_Remove_error_string");
  UserError* e = user_error(CommObjects::get().find_rank(call.rank), errorcode);
  if (!e || !e->has_text)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG,
                     "errorcode=%d has no string set by MPI_Add_error_string on this rank",
                     errorcode);
  e->text.clear();
  e->has_text = false;
  return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  ApiCall call("MPI_Error_string", ApiCall::Needs::Nothing);
  if (UserError* e = user_error(CommObjects::get().find_rank(call.rank), errorcode)) {
    copy_out(e->text.c_str(), string, resultlen);
    return MPI_SUCCESS;
  }
  std::string text =
      simmpi::strprintf("%s: %s", error_class_name(errorcode), error_class_text(errorcode));
  copy_out(text.c_str(), string, resultlen);
  return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int* errorclass) {
  ApiCall call("MPI_Error_class", ApiCall::Needs::Nothing);
  if (UserError* e = user_error(CommObjects::get().find_rank(call.rank), errorcode)) {
    *errorclass = e->error_class;
    return MPI_SUCCESS;
  }
  if (errorcode >= kFirstUserError)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "errorcode=%d is not an error code", errorcode);
  *errorclass = errorcode;  // predefined codes are their own classes
  return MPI_SUCCESS;
}

}  // extern "C"
