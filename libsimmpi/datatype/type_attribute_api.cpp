// SPDX-License-Identifier: Apache-2.0
// Attributes on datatypes (MPI-3.1 6.7.4): keyvals and values through the mechanism communicators
// and windows use (comm/attributes.hpp), cached on the Datatype, so every handle of one type sees
// them. MPI_Type_dup runs the copy callbacks and MPI_Type_free the delete callbacks
// (lifecycle_api.cpp). Datatypes have no predefined attributes.
#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// The datatype `h` as an attribute holder; errors go through MPI_COMM_WORLD's handler, as the
// other datatype calls' do (type_args.hpp).
AttributeHolder holder(ApiCall& call, MPI_Datatype h, const Datatype& t) {
  return AttributeHolder{h, &t, [](int) { return false; },
                         [&call](int cls, const char* detail) {
                           return call.fail(MPI_COMM_WORLD, cls, "%s", detail);
                         }};
}

// The datatype `h`, committed or not, or nullptr with *err set.
const Datatype* attribute_type(ApiCall& call, MPI_Datatype h, int* err) {
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(h, "datatype", &t);
  *err = a.error();
  return a.ok() ? t : nullptr;
}

}  // namespace

extern "C" {

// Type keyvals are the communicators' (the callbacks' types differ only in the handle's).
int MPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                           MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval,
                           void* extra_state) {
  ApiCall call("MPI_Type_create_keyval");  // names the call in errors
  return MPI_Comm_create_keyval(type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state);
}

int MPI_Type_free_keyval(int* type_keyval) {
  ApiCall call("MPI_Type_free_keyval");
  return MPI_Comm_free_keyval(type_keyval);
}

int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  ApiCall call("MPI_Type_set_attr");
  int err;
  const Datatype* t = attribute_type(call, datatype, &err);
  if (!t) return err;
  return set_attribute(call, holder(call, datatype, *t), type_keyval, attribute_val);
}

int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  ApiCall call("MPI_Type_get_attr");
  int err;
  const Datatype* t = attribute_type(call, datatype, &err);
  if (!t) return err;
  if (!attribute_val || !flag)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "attribute_val or flag is NULL");
  return get_attribute(call, holder(call, datatype, *t), type_keyval,
                       static_cast<void**>(attribute_val), flag);
}

int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  ApiCall call("MPI_Type_delete_attr");
  int err;
  const Datatype* t = attribute_type(call, datatype, &err);
  if (!t) return err;
  return delete_attribute(call, holder(call, datatype, *t), type_keyval);
}

}  // extern "C"
