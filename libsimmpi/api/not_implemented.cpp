// SPDX-License-Identifier: Apache-2.0
// One definition per line of not_implemented.def. A stub reads none of its arguments, so one
// variadic definition serves every prototype: C linkage carries no types, the caller passes what
// the declaration in mpi.h says, and nothing is read. That is why this file must not include
// mpi.h (its declarations would conflict with these definitions), and why implementing a
// function only means deleting its line from the table.
#include "libsimmpi/api/not_implemented.hpp"

#define SIMMPI_NOT_IMPLEMENTED(name, reason)                               \
  extern "C" __attribute__((visibility("default"))) int name(...) {        \
    simmpi::mpi::end_not_implemented(#name, simmpi::mpi::missing::reason); \
  }
#include "libsimmpi/api/not_implemented.def"
#undef SIMMPI_NOT_IMPLEMENTED
