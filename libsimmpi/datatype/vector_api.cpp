// SPDX-License-Identifier: Apache-2.0
// MPI_Type_contiguous, MPI_Type_vector and MPI_Type_create_hvector (MPI-3.1 4.1.2), their
// large-count (_c) forms (MPI-4.1 5.1.2), and the MPI-1 MPI_Type_hvector. The int and _c forms
// are one implementation with 64-bit counts.
#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

int make_contiguous(const char* name, long long count, MPI_Datatype oldtype,
                    MPI_Datatype* newtype) {
  ApiCall call(name);
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.count(count).type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  return a.publish(contiguous_layout(count, *old),
                   counted_envelope(MPI_COMBINER_CONTIGUOUS, {count}, {}, {old}), newtype);
}

// Vector and hvector differ only in the unit of the stride.
int make_vector(const char* name, int combiner, long long count, long long blocklength,
                long long stride, bool stride_in_bytes, MPI_Datatype oldtype,
                MPI_Datatype* newtype) {
  ApiCall call(name);
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.count(count).nonnegative(blocklength, "blocklength").type(oldtype, "oldtype", &old);
  a.out(newtype, "newtype");
  if (!a.ok()) return a.error();
  std::int64_t bytes = stride_in_bytes ? stride : stride * old->extent;
  std::vector<long long> counts{count, blocklength};
  std::vector<MPI_Aint> aints;
  if (stride_in_bytes)
    aints.push_back(stride);
  else
    counts.push_back(stride);
  return a.publish(hvector_layout(count, blocklength, bytes, *old),
                   counted_envelope(combiner, counts, std::move(aints), {old}), newtype);
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return make_contiguous("MPI_Type_contiguous", count, oldtype, newtype);
}
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return make_contiguous("MPI_Type_contiguous_c", count, oldtype, newtype);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype* newtype) {
  return make_vector("MPI_Type_vector", MPI_COMBINER_VECTOR, count, blocklength, stride, false,
                     oldtype, newtype);
}
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return make_vector("MPI_Type_vector_c", MPI_COMBINER_VECTOR, count, blocklength, stride, false,
                     oldtype, newtype);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return make_vector("MPI_Type_create_hvector", MPI_COMBINER_HVECTOR, count, blocklength, stride,
                     true, oldtype, newtype);
}
int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return make_vector("MPI_Type_create_hvector_c", MPI_COMBINER_HVECTOR, count, blocklength, stride,
                     true, oldtype, newtype);
}

// The C binding of MPI-1's MPI_TYPE_HVECTOR is MPI_COMBINER_HVECTOR too (MPI-3.1 4.1.13).
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return make_vector("MPI_Type_hvector", MPI_COMBINER_HVECTOR, count, blocklength, stride, true,
                     oldtype, newtype);
}

}  // extern "C"
