// SPDX-License-Identifier: Apache-2.0
// MPI_Type_get_envelope and MPI_Type_get_contents (MPI-3.1 4.1.13): how a type was built.
#include "libsimmpi/datatype/type_args.hpp"
#include "libsimmpi/datatype/type_table.hpp"

using namespace simmpi::mpi;

namespace {

// A predefined type is returned as itself; a derived one as a new handle that the caller must
// free (MPI-3.1 4.1.13), referring to the same type.
MPI_Datatype handle_for(int rank, const TypeRef& t) {
  if (!t->derived) return predefined_handle(*t);
  return type_table().add(rank, t);
}

}  // namespace

extern "C" {

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                          int* num_datatypes, int* combiner) {
  ApiCall call("MPI_Type_get_envelope");
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(datatype, "datatype", &t).out(num_integers, "num_integers");
  a.out(num_addresses, "num_addresses").out(num_datatypes, "num_datatypes");
  a.out(combiner, "combiner");
  if (!a.ok()) return a.error();
  Envelope named;
  const Envelope& e = t->derived ? t->derived->envelope : named;
  *num_integers = static_cast<int>(e.ints.size());
  *num_addresses = static_cast<int>(e.aints.size());
  *num_datatypes = static_cast<int>(e.types.size());
  *combiner = e.combiner;
  return MPI_SUCCESS;
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                          int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                          MPI_Datatype array_of_datatypes[]) {
  ApiCall call("MPI_Type_get_contents");
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(datatype, "datatype", &t);
  if (a.ok() && !t->derived)
    a.fail(MPI_ERR_TYPE, "datatype=%s is predefined; only derived types have contents", t->name);
  if (!a.ok()) return a.error();
  const Envelope& e = t->derived->envelope;
  auto ni = static_cast<int>(e.ints.size()), na = static_cast<int>(e.aints.size()),
       nd = static_cast<int>(e.types.size());
  if (max_integers < ni || max_addresses < na || max_datatypes < nd)
    a.fail(MPI_ERR_ARG,
           "max_integers=%d, max_addresses=%d, max_datatypes=%d are smaller than "
           "the %d, %d, %d that MPI_Type_get_envelope reports",
           max_integers, max_addresses, max_datatypes, ni, na, nd);
  a.array(array_of_integers, ni, "array_of_integers");
  a.array(array_of_addresses, na, "array_of_addresses");
  a.array(array_of_datatypes, nd, "array_of_datatypes");
  if (!a.ok()) return a.error();
  for (int i = 0; i < ni; ++i) array_of_integers[i] = e.ints[static_cast<std::size_t>(i)];
  for (int i = 0; i < na; ++i) array_of_addresses[i] = e.aints[static_cast<std::size_t>(i)];
  for (int i = 0; i < nd; ++i)
    array_of_datatypes[i] = handle_for(call.rank, e.types[static_cast<std::size_t>(i)]);
  return MPI_SUCCESS;
}

}  // extern "C"
