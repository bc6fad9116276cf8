// SPDX-License-Identifier: Apache-2.0
// The shared libraries' part of privatization (runtime.privatize_libs): their state is found
// when the simulation starts, and again each time the program dlopens a library (the dlopen
// interposer in library_privatization.cpp), then handed to the scheduler's privatizer.
#pragma once

#include <string>

#include "runtime/privatize/privatizer.hpp"

namespace simmpi::mpi {

// Adds the state of the libraries loaded now to runtime::ProgramImage, under the rule of
// `spec` (runtime.privatize_libs), and names on stderr each library whose state stays shared
// although it should not. Call before make_privatizer; not at all with runtime.privatize=none.
// Throws ConfigError for a bad `spec`.
void capture_program_libraries(const std::string& spec);

}  // namespace simmpi::mpi
