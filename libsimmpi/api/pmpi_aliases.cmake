# SPDX-License-Identifier: Apache-2.0
# The profiling names (MPI-3.1 14.2): for every function in include/simmpi_functions.h, a linker
# script line "PMPI_X = MPI_X;" makes PMPI_X a second name of simmpi's MPI_X in libsimmpi.so.
# One mechanism for all: no source file knows about PMPI, a tool's own MPI_X (in the program or a
# preloaded library) takes MPI_X's place while PMPI_X still reaches simmpi, and the link of
# libsimmpi.so fails ("undefined symbol MPI_X referenced in expression") if any listed function
# is neither implemented nor in api/not_implemented.def.
set(SIMMPI_FUNCTION_LIST ${CMAKE_CURRENT_SOURCE_DIR}/include/simmpi_functions.h)
set(SIMMPI_PMPI_SCRIPT ${CMAKE_CURRENT_BINARY_DIR}/pmpi_aliases.ld)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${SIMMPI_FUNCTION_LIST})
file(STRINGS ${SIMMPI_FUNCTION_LIST} simmpi_function_lines REGEX "^SIMMPI_FUNCTION\\(")
set(simmpi_aliases "/* Generated from libsimmpi/include/simmpi_functions.h by pmpi_aliases.cmake */\n")
foreach(line IN LISTS simmpi_function_lines)
  string(REGEX REPLACE "^SIMMPI_FUNCTION\\((MPI_[A-Za-z0-9_]+),.*" "\\1" name "${line}")
  string(APPEND simmpi_aliases "P${name} = ${name};\n")
endforeach()
file(GENERATE OUTPUT ${SIMMPI_PMPI_SCRIPT} CONTENT "${simmpi_aliases}")
