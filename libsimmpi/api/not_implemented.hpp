// SPDX-License-Identifier: Apache-2.0
// What becomes of the MPI-3.1 functions simmpi does not implement (listed in
// not_implemented.def): each is defined, so every MPI program links, and calling one ends the run
// with one message naming the function, the rank and the reason. No function fails silently or
// pretends to succeed. This header does not include mpi.h (see not_implemented.cpp).
#pragma once

namespace simmpi::mpi {

// The reasons not_implemented.def gives, one per missing part of the standard.
namespace missing {
inline constexpr const char* dynamic_processes = "dynamic process management";
}  // namespace missing

// Ends the run with exit status 1 and "[t=... r2] MPI_Comm_spawn is not implemented by simmpi
// (dynamic process management); see docs/status.md". Called by the running rank; never returns.
[[noreturn]] void end_not_implemented(const char* function, const char* reason);

}  // namespace simmpi::mpi
