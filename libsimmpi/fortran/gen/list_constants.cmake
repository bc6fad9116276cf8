# SPDX-License-Identifier: Apache-2.0
# Lists the object-like MPI_* macros of mpi.h as SIMMPI_CONSTANT(name) lines (see
# mpi_h_constants.cpp).   cmake -DMPI_H=mpi.h -DOUT=mpi_h_constants.inc -P list_constants.cmake
file(STRINGS ${MPI_H} lines REGEX "^#define MPI_[A-Za-z0-9_]+[ \t]")
set(text "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^#define (MPI_[A-Za-z0-9_]+)[ \t].*" "\\1" name "${line}")
  string(APPEND text "SIMMPI_CONSTANT(${name})\n")
endforeach()
file(WRITE ${OUT} "${text}")
