// SPDX-License-Identifier: Apache-2.0
// The partitioned communication entry points (MPI-4.1 4.2): MPI_Psend_init, MPI_Precv_init,
// MPI_Pready, MPI_Pready_range, MPI_Pready_list and MPI_Parrived. MPI_Start(all), the Wait and
// Test families and MPI_Request_free take partitioned requests as other persistent ones; the
// model is in partitioned.hpp.
#include <vector>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/partitioned.hpp"

using namespace simmpi::mpi;
namespace ct = simmpi::runtime::call_trace;

namespace {

int init(const char* name, bool send, void* buf, int partitions, MPI_Count count,
         MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  CallRecord rec(call, ct::Kind::PartitionedInit);
  rec.value(send).value(partitions).value(count).type(datatype).value(peer).value(tag);
  rec.value(comm).out(request);
  const int err =
      init_partitioned(call, send, buf, partitions, count, datatype, peer, tag, comm, request);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
}

// The forms of MPI_Pready: 0 one partition, 1 a range, 2 a list (call_trace_format.hpp).
int ready(ApiCall& call, int form, const std::vector<int>& parts, MPI_Request request) {
  CallRecord rec(call, ct::Kind::Pready);
  rec.value(form).array(parts.data(), static_cast<int>(parts.size())).value(request);
  const int err = mark_ready(call, request, parts);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
}

}  // namespace

extern "C" {

int MPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return init("MPI_Psend_init", true, const_cast<void*>(buf), partitions, count, datatype, dest,
              tag, comm, request);
}

int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                   int tag, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  return init("MPI_Precv_init", false, buf, partitions, count, datatype, source, tag, comm,
              request);
}

int MPI_Pready(int partition, MPI_Request request) {
  ApiCall call("MPI_Pready");
  return ready(call, 0, {partition}, request);
}

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  ApiCall call("MPI_Pready_range");
  if (partition_low > partition_high)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "partition_low=%d exceeds partition_high=%d",
                     partition_low, partition_high);
  std::vector<int> parts;
  for (long long p = partition_low; p <= partition_high; ++p) parts.push_back(static_cast<int>(p));
  return ready(call, 1, parts, request);
}

int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  ApiCall call("MPI_Pready_list");
  if (length < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "length=%d is negative", length);
  if (length > 0 && !array_of_partitions)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "array_of_partitions is NULL");
  std::vector<int> parts(array_of_partitions, array_of_partitions + length);
  return ready(call, 2, parts, request);
}

int MPI_Parrived(MPI_Request request, int partition, int* flag) {
  ApiCall call("MPI_Parrived");
  CallRecord rec(call, ct::Kind::Parrived);
  rec.value(request).value(partition).out(flag);
  const int err = partition_arrived(call, request, partition, flag);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
}

}  // extern "C"
