// SPDX-License-Identifier: Apache-2.0
// Collective entry checks and barriers of files.
#include "libsimmpi/io/file_collective.hpp"

#include <string>

#include "libsimmpi/coll/dispatch.hpp"

namespace simmpi::mpi {

int enter_file_collective(ApiCall& call, const FileRef& f, const char* name, std::int64_t bytes,
                          std::uint32_t* seq) {
  Communicator& priv = f.file->comm();
  std::string why;
  int cls = priv.check_collective(f.me, CollectiveSignature{name, -1, MPI_OP_NULL, bytes}, &why);
  if (cls != MPI_SUCCESS) return file_fail(call, f, cls, "%s", why.c_str());
  *seq = priv.last_collective(f.me);
  return MPI_SUCCESS;
}

void file_barrier(ApiCall& call, const FileRef& f, std::uint32_t seq) {
  CollContext cc(call.world, f.file->comm(), seq);
  run_barrier(cc);
}

}  // namespace simmpi::mpi
