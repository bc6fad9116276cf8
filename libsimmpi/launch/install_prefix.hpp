// SPDX-License-Identifier: Apache-2.0
// Where simmpi is installed, found from the path of the object this code is in: libsimmpi.so
// (<prefix>/lib) or a tool that compiles it in (<prefix>/bin). The build tree has the same
// layout (bin/, lib/, share/simmpi/), so both work alike.
#pragma once

#include <string>

namespace simmpi::mpi {

// The prefix (the directory above that object's), or "" when its path is unknown.
std::string install_prefix();

}  // namespace simmpi::mpi
