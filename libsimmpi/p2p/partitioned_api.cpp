// SPDX-License-Identifier: Apache-2.0
// The partitioned communication entry points (MPI-4.1 4.2): MPI_Psend_init, MPI_Precv_init,
// MPI_Pready, MPI_Pready_range, MPI_Pready_list and MPI_Parrived. MPI_Start(all), the Wait and
// Test families and MPI_Request_free take partitioned requests as other persistent ones; the
// model is in partitioned.hpp.
#include <vector>

#include "libsimmpi/p2p/partitioned.hpp"

using namespace simmpi::mpi;

extern "C" {

int MPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  ApiCall call("MPI_Psend_init");
  return init_partitioned(call, true, const_cast<void*>(buf), partitions, count, datatype, dest,
                          tag, comm, request);
}

int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                   int tag, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  ApiCall call("MPI_Precv_init");
  return init_partitioned(call, false, buf, partitions, count, datatype, source, tag, comm,
                          request);
}

int MPI_Pready(int partition, MPI_Request request) {
  ApiCall call("MPI_Pready");
  return mark_ready(call, request, {partition});
}

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  ApiCall call("MPI_Pready_range");
  if (partition_low > partition_high)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "partition_low=%d exceeds partition_high=%d",
                     partition_low, partition_high);
  std::vector<int> parts;
  for (long long p = partition_low; p <= partition_high; ++p) parts.push_back(static_cast<int>(p));
  return mark_ready(call, request, parts);
}

int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  ApiCall call("MPI_Pready_list");
  if (length < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "length=%d is negative", length);
  if (length > 0 && !array_of_partitions)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "array_of_partitions is NULL");
  std::vector<int> parts(array_of_partitions, array_of_partitions + length);
  return mark_ready(call, request, parts);
}

int MPI_Parrived(MPI_Request request, int partition, int* flag) {
  ApiCall call("MPI_Parrived");
  return partition_arrived(call, request, partition, flag);
}

}  // extern "C"
