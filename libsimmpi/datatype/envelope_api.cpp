// SPDX-License-Identifier: Apache-2.0
// MPI_Type_get_envelope and MPI_Type_get_contents (MPI-3.1 4.1.13) and their large-count forms
// (MPI-4.1 5.1.13): how a type was built. One implementation: a type whose counts do not fit an
// int (Envelope::large_counts) has large counts, which only the _c forms can report; the int
// forms then raise MPI_ERR_TYPE.
#include <algorithm>

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

// MPI_ERR_TYPE when an int form (`large` false) is asked about a type with large counts.
void require_int_form(TypeArgs& a, const Envelope& e, bool large) {
  if (a.ok() && !large && !e.large_counts.empty())
    a.fail(MPI_ERR_TYPE,
           "the datatype was made with counts that do not fit an int (by a large-count "
           "constructor); ask MPI_Type_get_envelope_c / MPI_Type_get_contents_c");
}

// num_large_counts is nullptr for the int form.
int envelope(const char* name, MPI_Datatype datatype, MPI_Count* num_integers,
             MPI_Count* num_addresses, MPI_Count* num_large_counts, MPI_Count* num_datatypes,
             int* combiner) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(datatype, "datatype", &t).out(num_integers, "num_integers");
  a.out(num_addresses, "num_addresses").out(num_datatypes, "num_datatypes");
  a.out(combiner, "combiner");
  const bool large = num_large_counts != nullptr;
  Envelope named;
  const Envelope& e = a.ok() && t->derived ? t->derived->envelope : named;
  require_int_form(a, e, large);
  if (!a.ok()) return a.error();
  *num_integers = static_cast<MPI_Count>(e.ints.size());
  *num_addresses = static_cast<MPI_Count>(e.aints.size());
  if (large) *num_large_counts = static_cast<MPI_Count>(e.large_counts.size());
  *num_datatypes = static_cast<MPI_Count>(e.types.size());
  *combiner = e.combiner;
  return MPI_SUCCESS;
}

// array_of_large_counts is nullptr, and max_large_counts 0, for the int form.
int contents(const char* name, MPI_Datatype datatype, MPI_Count max_integers,
             MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count max_datatypes,
             int array_of_integers[], MPI_Aint array_of_addresses[],
             MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[], bool large) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(datatype, "datatype", &t);
  if (a.ok() && !t->derived)
    a.fail(MPI_ERR_TYPE, "datatype=%s is predefined; only derived types have contents", t->name);
  if (!a.ok()) return a.error();
  const Envelope& e = t->derived->envelope;
  require_int_form(a, e, large);
  auto ni = static_cast<MPI_Count>(e.ints.size()), na = static_cast<MPI_Count>(e.aints.size()),
       nl = static_cast<MPI_Count>(e.large_counts.size()),
       nd = static_cast<MPI_Count>(e.types.size());
  if (max_integers < ni || max_addresses < na || max_large_counts < nl || max_datatypes < nd)
    a.fail(MPI_ERR_ARG,
           "max_integers=%lld, max_addresses=%lld, max_large_counts=%lld, max_datatypes=%lld "
           "are smaller than the %lld, %lld, %lld, %lld that MPI_Type_get_envelope reports",
           max_integers, max_addresses, max_large_counts, max_datatypes, ni, na, nl, nd);
  a.array(array_of_integers, ni, "array_of_integers");
  a.array(array_of_addresses, na, "array_of_addresses");
  a.array(array_of_large_counts, nl, "array_of_large_counts");
  a.array(array_of_datatypes, nd, "array_of_datatypes");
  if (!a.ok()) return a.error();
  std::copy(e.ints.begin(), e.ints.end(), array_of_integers);
  std::copy(e.aints.begin(), e.aints.end(), array_of_addresses);
  std::copy(e.large_counts.begin(), e.large_counts.end(), array_of_large_counts);
  for (MPI_Count i = 0; i < nd; ++i)
    array_of_datatypes[i] = handle_for(call.rank, e.types[static_cast<std::size_t>(i)]);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                          int* num_datatypes, int* combiner) {
  MPI_Count ni = 0, na = 0, nd = 0;
  const int err =
      envelope("MPI_Type_get_envelope", datatype, num_integers ? &ni : nullptr,
               num_addresses ? &na : nullptr, nullptr, num_datatypes ? &nd : nullptr, combiner);
  if (err != MPI_SUCCESS) return err;
  *num_integers = static_cast<int>(ni);
  *num_addresses = static_cast<int>(na);
  *num_datatypes = static_cast<int>(nd);
  return MPI_SUCCESS;
}

int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers,
                            MPI_Count* num_addresses, MPI_Count* num_large_counts,
                            MPI_Count* num_datatypes, int* combiner) {
  MPI_Count ignored = 0;  // a NULL num_large_counts is checked like the other outputs
  if (!num_large_counts) num_large_counts = &ignored;
  return envelope("MPI_Type_get_envelope_c", datatype, num_integers, num_addresses,
                  num_large_counts, num_datatypes, combiner);
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                          int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                          MPI_Datatype array_of_datatypes[]) {
  return contents("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0, max_datatypes,
                  array_of_integers, array_of_addresses, nullptr, array_of_datatypes, false);
}

int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                            MPI_Count max_large_counts, MPI_Count max_datatypes,
                            int array_of_integers[], MPI_Aint array_of_addresses[],
                            MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]) {
  return contents("MPI_Type_get_contents_c", datatype, max_integers, max_addresses,
                  max_large_counts, max_datatypes, array_of_integers, array_of_addresses,
                  array_of_large_counts, array_of_datatypes, true);
}

}  // extern "C"
