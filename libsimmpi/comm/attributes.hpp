// SPDX-License-Identifier: Apache-2.0
// Attribute caching on communicators, windows and datatypes (MPI-3.1 sections 6.7, 6.7.3, 6.7.4).
// Values are per process: each rank has its own on each object, and its copy and delete callbacks
// run on its own fiber. A window caches its attributes on its private communicator, a datatype on
// its Datatype. The three kinds share one keyval table: their callbacks' types differ only in the
// handle type, and handles are ints.
#pragma once

#include <functional>

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// The object an attribute call works on: the handle its callbacks receive (a communicator's, a
// window's or a datatype's), the object its values are cached on (a Communicator or Datatype),
// whether a keyval is one of its predefined attributes (read-only), and how errors are raised on
// it.
struct AttributeHolder {
  int handle;
  const void* cache;
  std::function<bool(int keyval)> is_predefined;
  std::function<int(int cls, const char* detail)> raise;
};
// MPI_Comm_set_attr / MPI_Win_set_attr once the object is known: replacing a value deletes the
// old one first (MPI-3.1 6.7.2). Callbacks may yield.
int set_attribute(ApiCall& call, const AttributeHolder& h, int keyval, void* value);
// MPI_*_get_attr of a keyval that is not predefined: *flag, and the value into *value.
int get_attribute(ApiCall& call, const AttributeHolder& h, int keyval, void** value, int* flag);
// MPI_*_delete_attr: deleting an attribute that is not set is a no-op (as in MPICH).
int delete_attribute(ApiCall& call, const AttributeHolder& h, int keyval);

// Gives the caller's attributes on `from` to `to` through their copy callbacks (MPI_Comm_dup,
// MPI_Type_dup). Returns MPI_SUCCESS or the first callback's error (callbacks may yield).
int copy_attributes(ApiCall& call, int from_handle, const void* from, const void* to);
// Deletes the caller's attributes on `object` through their delete callbacks (MPI_Comm_free,
// MPI_Type_free, and MPI_Finalize for MPI_COMM_SELF). Returns MPI_SUCCESS or the first
// callback's error; the attributes deleted before it stay deleted.
int delete_attributes(ApiCall& call, int handle, const void* object);

}  // namespace simmpi::mpi

namespace simmpi::mpi {

struct RankObjects;
// Deletes one attribute of the caller through its keyval's delete callback; the keyval dies with
// its last attribute once freed. Returns the callback's error (the attribute then stays).
int delete_attribute(RankObjects& objects, int handle, const void* object, int keyval);

}  // namespace simmpi::mpi
