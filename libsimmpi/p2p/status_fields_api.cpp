// SPDX-License-Identifier: Apache-2.0
// MPI-4.1's accessors of a status's public fields (3.2.5): MPI_Status_get/set_source, _tag and
// _error read and write MPI_SOURCE, MPI_TAG and MPI_ERROR, for bindings that cannot reach the
// struct. Like the other status setters (grequest_api.cpp) they need no MPI_Init.
#include "libsimmpi/core/api_call.hpp"

using namespace simmpi::mpi;

namespace {

// A status the caller may read or write; false after raising MPI_ERR_ARG (NULL, or
// MPI_STATUS_IGNORE, which names no storage).
bool is_usable(const char* name, const MPI_Status* status, int* err) {
  if (status && status != MPI_STATUS_IGNORE) return true;
  ApiCall call(name, ApiCall::Needs::Nothing);
  *err = call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
  return false;
}

int get_field(const char* name, const MPI_Status* status, int MPI_Status::*field, int* out) {
  int err = MPI_SUCCESS;
  if (!is_usable(name, status, &err)) return err;
  if (!out) {
    ApiCall call(name, ApiCall::Needs::Nothing);
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "the output argument is NULL");
  }
  *out = status->*field;
  return MPI_SUCCESS;
}

int set_field(const char* name, MPI_Status* status, int MPI_Status::*field, int value) {
  int err = MPI_SUCCESS;
  if (!is_usable(name, status, &err)) return err;
  status->*field = value;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Status_get_source(const MPI_Status* status, int* source) {
  return get_field("MPI_Status_get_source", status, &MPI_Status::MPI_SOURCE, source);
}
int MPI_Status_set_source(MPI_Status* status, int source) {
  return set_field("MPI_Status_set_source", status, &MPI_Status::MPI_SOURCE, source);
}
int MPI_Status_get_tag(const MPI_Status* status, int* tag) {
  return get_field("MPI_Status_get_tag", status, &MPI_Status::MPI_TAG, tag);
}
int MPI_Status_set_tag(MPI_Status* status, int tag) {
  return set_field("MPI_Status_set_tag", status, &MPI_Status::MPI_TAG, tag);
}
int MPI_Status_get_error(const MPI_Status* status, int* error) {
  return get_field("MPI_Status_get_error", status, &MPI_Status::MPI_ERROR, error);
}
int MPI_Status_set_error(MPI_Status* status, int error) {
  return set_field("MPI_Status_set_error", status, &MPI_Status::MPI_ERROR, error);
}

}  // extern "C"
