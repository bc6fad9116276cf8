// SPDX-License-Identifier: Apache-2.0
// MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI-3.1 4.2), and addresses (4.1.5, 4.1.12). The
// packed format is the bytes of the data in type-map order, the same stream messages carry, so
// a packed buffer sent as MPI_PACKED can be received with the original type and vice versa.
#include <cstdint>

#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// Checks what MPI_Pack and MPI_Unpack share; the committed type, or nullptr with *err set.
const Datatype* pack_args(ApiCall& call, const char* count_name, int count, MPI_Datatype datatype,
                          const char* size_name, int bufsize, const int* position, MPI_Comm comm,
                          int* err) {
  *err = MPI_ERR_COMM;
  if (!call.comm(comm)) return nullptr;
  const Datatype* t = nullptr;
  TypeArgs a(call, comm);
  a.count(count, count_name).nonnegative(bufsize, size_name).out(position, "position");
  a.type(datatype, "datatype", &t);
  if (a.ok() && !is_committed(*t))
    a.fail(MPI_ERR_TYPE, "%s is not committed; call MPI_Type_commit first", t->name);
  if (a.ok() && *position < 0) a.fail(MPI_ERR_ARG, "position=%d is negative", *position);
  *err = a.error();
  return a.ok() ? t : nullptr;
}

}  // namespace

extern "C" {

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
             int* position, MPI_Comm comm) {
  ApiCall call("MPI_Pack");
  int err;
  const Datatype* t =
      pack_args(call, "incount", incount, datatype, "outsize", outsize, position, comm, &err);
  if (!t) return err;
  std::uint64_t bytes = t->size * static_cast<std::uint64_t>(incount);
  if (static_cast<std::uint64_t>(*position) + bytes > static_cast<std::uint64_t>(outsize))
    return call.fail(comm, MPI_ERR_ARG, "outsize=%d cannot hold %llu more bytes at position=%d",
                     outsize, static_cast<unsigned long long>(bytes), *position);
  pack(inbuf, incount, *t, static_cast<char*>(outbuf) + *position);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

// Too little input is MPI_ERR_TRUNCATE, as in Open MPI (MPICH reads past the end).
int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
               MPI_Datatype datatype, MPI_Comm comm) {
  ApiCall call("MPI_Unpack");
  int err;
  const Datatype* t =
      pack_args(call, "outcount", outcount, datatype, "insize", insize, position, comm, &err);
  if (!t) return err;
  std::uint64_t bytes = t->size * static_cast<std::uint64_t>(outcount);
  if (static_cast<std::uint64_t>(*position) + bytes > static_cast<std::uint64_t>(insize))
    return call.fail(comm, MPI_ERR_TRUNCATE,
                     "insize=%d holds fewer than the %llu bytes of "
                     "%d x %s after position=%d",
                     insize, static_cast<unsigned long long>(bytes), outcount, t->name, *position);
  unpack(static_cast<const char*>(inbuf) + *position, outcount, *t, outbuf);
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

// The packed size is exact: packing adds no header.
int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  ApiCall call("MPI_Pack_size");
  if (!call.comm(comm)) return MPI_ERR_COMM;
  TypeArgs a(call, comm);
  const Datatype* t = nullptr;
  a.count(incount, "incount").type(datatype, "datatype", &t).out(size, "size");
  if (!a.ok()) return a.error();
  std::uint64_t bytes = t->size * static_cast<std::uint64_t>(incount);
  if (bytes > INT32_MAX)
    return call.fail(comm, MPI_ERR_ARG, "%d x %s is %llu bytes, more than an int can count",
                     incount, t->name, static_cast<unsigned long long>(bytes));
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

int MPI_Address(const void* location, MPI_Aint* address) {
  return MPI_Get_address(location, address);
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return base + disp;
}

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return addr1 - addr2;
}

}  // extern "C"
