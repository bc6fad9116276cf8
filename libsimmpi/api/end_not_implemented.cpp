// SPDX-License-Identifier: Apache-2.0
// The end of a run that called a function simmpi does not implement.
#include "libsimmpi/api/not_implemented.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

// The call is named like any other (crash reports say which call a rank was in); MPI need not
// be initialized: MPI_T_init_thread, for one, may come before MPI_Init.
void end_not_implemented(const char* function, const char* reason) {
  ApiCall call(function, ApiCall::Needs::Nothing);
  fatal(1, strprintf("[t=%s r%d] %s is not implemented by simmpi (%s); see docs/status.md",
                     call.world.now().to_string().c_str(), call.rank, function, reason));
}

}  // namespace simmpi::mpi
