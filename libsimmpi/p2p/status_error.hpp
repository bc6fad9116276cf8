// SPDX-License-Identifier: Apache-2.0
// The MPI_ERROR field of a status. MPI-3.1 3.2.5: calls that return a single status (MPI_Recv,
// MPI_Wait, MPI_Test, MPI_Probe, MPI_Mrecv...) do not set it (the call's return value says the
// same); only those that return several (MPI_Waitall, Testall, Waitsome, Testsome) do. So a
// program may keep its own value there across a receive, and some test suites check that.
#pragma once

#include "mpi.h"

namespace simmpi::mpi {

// Put at the top of a call that returns one status: the field is as the caller left it when
// the call returns, whatever the call's internals wrote into the status.
class KeepStatusError {
 public:
  explicit KeepStatusError(MPI_Status* s)
      : status_(s == MPI_STATUS_IGNORE ? nullptr : s), saved_(status_ ? status_->MPI_ERROR : 0) {}
  ~KeepStatusError() {
    if (status_) status_->MPI_ERROR = saved_;
  }
  KeepStatusError(const KeepStatusError&) = delete;
  KeepStatusError& operator=(const KeepStatusError&) = delete;

 private:
  MPI_Status* status_;
  int saved_;
};

}  // namespace simmpi::mpi
