! SPDX-License-Identifier: Apache-2.0
! A Fortran shared library (simmpif90 -shared): a module variable, initialized and not, and an
! OpenMP threadprivate module variable (a thread-local variable of the library).
module priv_mod
  implicit none
  integer :: lib_counter = 5
  integer :: lib_plain
  integer :: lib_private = 9
  !$omp threadprivate(lib_private)
contains
  integer function lib_bump()
    lib_counter = lib_counter + 1
    lib_bump = lib_counter
  end function lib_bump
end module priv_mod
