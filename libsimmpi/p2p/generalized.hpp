// SPDX-License-Identifier: Apache-2.0
// What completion does with a generalized request (MPI-3.1 12.2): the application's callbacks
// give its status, free its state and cancel it. Each may call MPI; none switches by itself.
#pragma once

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

// Fills r.status through query_fn; returns the callback's error (raised on MPI_COMM_WORLD).
int query_generalized(ApiCall& call, Request& r);
// Calls free_fn, once, before the request is released; returns its error (raised likewise).
int free_generalized(ApiCall& call, Request& r);
// MPI_Cancel of a generalized request: cancel_fn is told whether it already completed.
int cancel_generalized(ApiCall& call, Request& r);

}  // namespace simmpi::mpi
