// SPDX-License-Identifier: Apache-2.0
// MPI_Comm_create_keyval and friends, the attribute calls (with their MPI-1 names) and the
// predefined attributes. Predefined attributes answer on every communicator, as in MPICH.
#include <climits>

#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/comm/comm_objects.hpp"

using namespace simmpi::mpi;

namespace {

// MPI_TAG_UB is INT_MAX: point-to-point accepts every non-negative tag. Wtime is one simulated
// clock for all ranks. Every rank can do I/O (MPI_IO = MPI_ANY_SOURCE); there is no host.
const int kTagUb = INT_MAX;
const int kHost = MPI_PROC_NULL;
const int kIo = MPI_ANY_SOURCE;
const int kWtimeIsGlobal = 1;

// The value of a predefined attribute, or nullptr if `keyval` is not one.
const int* predefined(int keyval, RankObjects& objects, int world_rank) {
  switch (keyval) {
    case MPI_TAG_UB:
      return &kTagUb;
    case MPI_HOST:
      return &kHost;
    case MPI_IO:
      return &kIo;
    case MPI_WTIME_IS_GLOBAL:
      return &kWtimeIsGlobal;
    case MPI_UNIVERSE_SIZE:
      return CommObjects::get().universe_size();
    case MPI_LASTUSEDCODE:
      return &objects.last_used_code;
    case MPI_APPNUM:
      return &World::get().rank(world_rank).appnum;  // 0, or the command of its spawn
    default:
      return nullptr;
  }
}

// The communicator `comm` as an attribute holder.
AttributeHolder holder(ApiCall& call, MPI_Comm comm, const Communicator& c) {
  return AttributeHolder{
      comm, &c,
      [&call](int keyval) {
        return predefined(keyval, CommObjects::get().rank(call.rank), call.rank) != nullptr;
      },
      [&call, comm](int cls, const char* detail) { return call.fail(comm, cls, "%s", detail); }};
}

int create_keyval(const char* name, MPI_Comm_copy_attr_function* copy,
                  MPI_Comm_delete_attr_function* del, int* keyval, void* extra_state) {
  ApiCall call(name);
  if (!keyval) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "keyval is NULL");
  *keyval = CommObjects::get().rank(call.rank).keyvals.add(Keyval{copy, del, extra_state});
  return MPI_SUCCESS;
}

int free_keyval(const char* name, int* keyval) {
  ApiCall call(name);
  if (!keyval) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "keyval is NULL");
  RankObjects& objects = CommObjects::get().rank(call.rank);
  Keyval* kv = objects.keyvals.find(*keyval);
  if (!kv)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "keyval=0x%08x is not a keyval of this rank",
                     static_cast<unsigned>(*keyval));
  // Freed already but kept alive by attributes: freeing it again (from its own delete callback,
  // say) changes nothing, as in MPICH, whose keyvals live until their last reference goes.
  kv->freed = true;  // attributes that use it keep it alive, callbacks included
  if (kv->uses == 0) objects.keyvals.remove(*keyval);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(const char* name, MPI_Comm comm, int keyval, void* value) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  return set_attribute(call, holder(call, comm, *c), keyval, value);
}

int get_attr(const char* name, MPI_Comm comm, int keyval, void* value, int* flag) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!value || !flag) return call.fail(comm, MPI_ERR_ARG, "attribute_val or flag is NULL");
  if (const int* v = predefined(keyval, CommObjects::get().rank(call.rank), call.rank)) {
    *static_cast<const int**>(value) = v;
    *flag = 1;
    return MPI_SUCCESS;
  }
  return get_attribute(call, holder(call, comm, *c), keyval, static_cast<void**>(value), flag);
}

int delete_attr(const char* name, MPI_Comm comm, int keyval) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  return delete_attribute(call, holder(call, comm, *c), keyval);
}

}  // namespace

extern "C" {

int simmpi_comm_dup_fn(MPI_Comm, int, void*, void* attribute_val_in, void* attribute_val_out,
                       int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* del,
                           int* keyval, void* extra_state) {
  return create_keyval("MPI_Comm_create_keyval", copy, del, keyval, extra_state);
}
int MPI_Keyval_create(MPI_Copy_function* copy, MPI_Delete_function* del, int* keyval,
                      void* extra_state) {
  return create_keyval("MPI_Keyval_create", copy, del, keyval, extra_state);
}
int MPI_Comm_free_keyval(int* keyval) {
  return free_keyval("MPI_Comm_free_keyval", keyval);
}
int MPI_Keyval_free(int* keyval) {
  return free_keyval("MPI_Keyval_free", keyval);
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void* value) {
  return set_attr("MPI_Comm_set_attr", comm, keyval, value);
}
int MPI_Attr_put(MPI_Comm comm, int keyval, void* value) {
  return set_attr("MPI_Attr_put", comm, keyval, value);
}
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
  return get_attr("MPI_Comm_get_attr", comm, keyval, value, flag);
}
int MPI_Attr_get(MPI_Comm comm, int keyval, void* value, int* flag) {
  return get_attr("MPI_Attr_get", comm, keyval, value, flag);
}
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
  return delete_attr("MPI_Comm_delete_attr", comm, keyval);
}
int MPI_Attr_delete(MPI_Comm comm, int keyval) {
  return delete_attr("MPI_Attr_delete", comm, keyval);
}

}  // extern "C"
