// SPDX-License-Identifier: Apache-2.0
// MPI_Type_contiguous, MPI_Type_vector and MPI_Type_create_hvector (MPI-3.1 4.1.2), and the
// MPI-1 MPI_Type_hvector.
#include "libsimmpi/datatype/layouts.hpp"
#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// Vector and hvector differ only in the unit of the stride.
int make_vector(const char* name, int combiner, int count, int blocklength, MPI_Aint stride,
                bool stride_in_bytes, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall call(name);
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.count(count).nonnegative(blocklength, "blocklength").type(oldtype, "oldtype", &old);
  a.out(newtype, "newtype");
  if (!a.ok()) return a.error();
  std::int64_t bytes = stride_in_bytes ? stride : stride * old->extent;
  Envelope e{combiner, {count, blocklength}, {}, {old}};
  if (stride_in_bytes)
    e.aints.push_back(stride);
  else
    e.ints.push_back(static_cast<int>(stride));
  return a.publish(hvector_layout(count, blocklength, bytes, *old), std::move(e), newtype);
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  ApiCall call("MPI_Type_contiguous");
  const Datatype* old = nullptr;
  TypeArgs a(call);
  a.count(count).type(oldtype, "oldtype", &old).out(newtype, "newtype");
  if (!a.ok()) return a.error();
  return a.publish(contiguous_layout(count, *old),
                   Envelope{MPI_COMBINER_CONTIGUOUS, {count}, {}, {old}}, newtype);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype* newtype) {
  return make_vector("MPI_Type_vector", MPI_COMBINER_VECTOR, count, blocklength, stride, false,
                     oldtype, newtype);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  return make_vector("MPI_Type_create_hvector", MPI_COMBINER_HVECTOR, count, blocklength, stride,
                     true, oldtype, newtype);
}

// The C binding of MPI-1's MPI_TYPE_HVECTOR is MPI_COMBINER_HVECTOR too (MPI-3.1 4.1.13).
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype* newtype) {
  return make_vector("MPI_Type_hvector", MPI_COMBINER_HVECTOR, count, blocklength, stride, true,
                     oldtype, newtype);
}

}  // extern "C"
