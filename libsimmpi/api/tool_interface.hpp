// SPDX-License-Identifier: Apache-2.0
// What the tool information interface's two files share: whether MPI_T is initialized on a
// rank, and the standard's rule for returning strings (tool_interface_api.cpp).
#pragma once

namespace simmpi::mpi {

// Whether rank `world_rank` is between MPI_T_init_thread and its matching MPI_T_finalize.
bool is_tool_interface_initialized(int world_rank);

// Copies `text` into (buf, *len): *len in is the buffer's size, out the length written
// including the terminator; a null buf or a zero length asks for the length.
void copy_tool_string(const char* text, char* buf, int* len);

}  // namespace simmpi::mpi
