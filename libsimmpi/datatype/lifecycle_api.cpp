// SPDX-License-Identifier: Apache-2.0
// MPI_Type_create_resized and MPI_Type_dup (MPI-3.1 4.1.7, 4.1.10), commit and free (4.1.9),
// and names (6.8). Attributes are copied by MPI_Type_dup and deleted by MPI_Type_free
// (type_attribute_api.cpp).
#include <cstdio>
#include <cstring>
#include <string>

#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"
#include "libsimmpi/datatype/type_table.hpp"

using namespace simmpi::mpi;

namespace {

bool is_f90_type(const Datatype& t) {
  const int c = t.derived->envelope.combiner;
  return c == MPI_COMBINER_F90_INTEGER || c == MPI_COMBINER_F90_REAL ||
         c == MPI_COMBINER_F90_COMPLEX;
}

}  // namespace

extern "C" {

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype* newtype) {
  ApiCall call("MPI_Type_create_resized");
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  return a.publish(resized_layout(*old, lb, extent),
                   Envelope{MPI_COMBINER_RESIZED, {}, {lb, extent}, {old}}, newtype);
}

// The duplicate is committed if the original is (as in MPICH); it has no name. Its attributes
// are those the original's copy callbacks give (MPI-3.1 6.7.4); when one fails, so does the call.
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall call("MPI_Type_dup");
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  int err = a.publish(dup_layout(*old), Envelope{MPI_COMBINER_DUP, {}, {}, {old}}, newtype);
  if (err != MPI_SUCCESS) return err;
  const Datatype* made = find_datatype(*newtype, call.rank);
  made->derived->committed = is_committed(*old);
  err = copy_attributes(call, oldtype, old, made);
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  delete_attributes(call, *newtype, made);
  type_table().remove(call.rank, *newtype);
  *newtype = MPI_DATATYPE_NULL;
  return call.fail(MPI_COMM_WORLD, err, "an attribute copy callback returned %d", err);
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  ApiCall call("MPI_Type_commit");
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.out(datatype, "datatype");
  if (a.ok()) a.type(*datatype, "datatype", &t);
  if (!a.ok()) return a.error();
  if (t->derived) t->derived->committed = true;  // predefined types are committed already
  return MPI_SUCCESS;
}

// Requests and types built on this one keep their own references (MPI-3.1 4.1.9).
int MPI_Type_free(MPI_Datatype* datatype) {
  ApiCall call("MPI_Type_free");
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.out(datatype, "datatype");
  if (a.ok()) a.type(*datatype, "datatype", &t);
  if (a.ok() && !t->derived)
    a.fail(MPI_ERR_TYPE, "datatype=%s is predefined and cannot be freed", t->name);
  if (a.ok() && is_f90_type(*t))
    a.fail(MPI_ERR_TYPE,
           "datatype=%s is a Fortran 90 parameterized type (MPI_Type_create_f90_*), which is "
           "predefined and cannot be freed",
           t->name);
  if (!a.ok()) return a.error();
  // The attributes go first, through their delete callbacks (MPI-3.1 6.7.4); a failing one
  // fails the call and the type stays.
  int err = delete_attributes(call, *datatype, t);
  if (err != MPI_SUCCESS)
    return call.fail(MPI_COMM_WORLD, err, "an attribute delete callback returned %d", err);
  type_table().remove(call.rank, *datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

// A derived type has no name until one is set (MPI-3.1 6.8); a predefined one has its own.
int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  ApiCall call("MPI_Type_get_name");
  if (datatype == MPI_DATATYPE_NULL && type_name && resultlen) {  // predefined (MPI-4.1 7.8)
    std::snprintf(type_name, MPI_MAX_OBJECT_NAME, "MPI_DATATYPE_NULL");
    *resultlen = static_cast<int>(std::strlen(type_name));
    return MPI_SUCCESS;
  }
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(datatype, "datatype", &t).out(type_name, "type_name").out(resultlen, "resultlen");
  if (!a.ok()) return a.error();
  const auto& renamed = call.world.rank(call.rank).predefined_type_names;
  const auto given = t->derived ? renamed.end() : renamed.find(datatype);
  const char* name = given != renamed.end() ? given->second.c_str()
                     : !t->derived          ? t->name
                     : t->derived->named    ? t->name
                                            : "";
  std::snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", name);
  *resultlen = static_cast<int>(std::strlen(type_name));
  return MPI_SUCCESS;
}

// Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters, as the standard allows.
// A predefined type is shared by every rank of the simulation, so the name a rank gives it is
// kept with the rank.
int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  ApiCall call("MPI_Type_set_name");
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.out(type_name, "type_name").type(datatype, "datatype", &t);
  if (!a.ok()) return a.error();
  if (!t->derived) {
    call.world.rank(call.rank).predefined_type_names[datatype] =
        std::string(type_name).substr(0, MPI_MAX_OBJECT_NAME - 1);
    return MPI_SUCCESS;
  }
  std::snprintf(t->derived->label, MPI_MAX_OBJECT_NAME, "%s", type_name);
  t->derived->named = true;
  return MPI_SUCCESS;
}

}  // extern "C"
