# SPDX-License-Identifier: Apache-2.0
# Helpers to build MPI programs with simmpicc and run them as tests (examples/ and tests/).

# The wrapper that compiles `source` (by its extension) and what a build with it depends on.
function(simmpi_wrapper_for source wrapper_var deps_var)
  get_filename_component(ext ${source} LAST_EXT)
  set(deps simmpi simmpi_start ${PROJECT_SOURCE_DIR}/tools/simmpicc.in)
  if(ext STREQUAL ".c")
    set(wrapper simmpicc)
  elseif(ext MATCHES "^\\.(f|F|for)$")
    set(wrapper simmpif77)
  elseif(ext MATCHES "^\\.(f90|F90)$")
    set(wrapper simmpif90)
  else()
    set(wrapper simmpicxx)
  endif()
  if(wrapper MATCHES "^simmpif")
    list(APPEND deps simmpi_fortran_module ${SIMMPI_FORTRAN_INCLUDE_DIR}/mpif.h
         ${SIMMPI_FORTRAN_INCLUDE_DIR}/mpi.mod ${SIMMPI_FORTRAN_INCLUDE_DIR}/mpi_f08.mod)
  else()
    list(APPEND deps ${PROJECT_SOURCE_DIR}/libsimmpi/include/mpi.h)
  endif()
  set(${wrapper_var} ${wrapper} PARENT_SCOPE)
  set(${deps_var} ${deps} PARENT_SCOPE)
endfunction()

# Builds an MPI program with the compiler wrapper (simmpicc for .c, simmpif77 for fixed-form
# Fortran .f/.F, simmpif90 for .f90/.F90, simmpicxx otherwise) into programs/<name>.sim, exactly
# as a user would. Other arguments are compiler options; DEPENDS lists files the program includes.
function(simmpi_program name source)
  cmake_parse_arguments(P "" "" "DEPENDS" ${ARGN})
  simmpi_wrapper_for(${source} wrapper deps)
  get_filename_component(src ${source} ABSOLUTE)
  set(out ${PROJECT_BINARY_DIR}/programs/${name}.sim)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/programs
    COMMAND ${PROJECT_BINARY_DIR}/bin/${wrapper} -O2 -g -Wall ${src} -o ${out}
            ${P_UNPARSED_ARGUMENTS}
    DEPENDS ${src} ${deps} ${P_DEPENDS}
    COMMENT "${wrapper} ${source}" VERBATIM)
  add_custom_target(program_${name} ALL DEPENDS ${out})
endfunction()

# Builds a shared library of MPI code with the wrapper and -shared -fPIC, as a user would, into
# programs/lib<name>.so; a program links it with DEPENDS on that file and -L, -l and -rpath
# options (or dlopens it). A Fortran library's modules go to programs/<name>_mod/.
function(simmpi_library name source)
  cmake_parse_arguments(P "" "" "DEPENDS" ${ARGN})
  simmpi_wrapper_for(${source} wrapper deps)
  get_filename_component(src ${source} ABSOLUTE)
  set(dir ${PROJECT_BINARY_DIR}/programs)
  set(out ${dir}/lib${name}.so)
  set(extra)
  set(dirs ${dir})
  if(wrapper MATCHES "^simmpif")
    set(extra -J${dir}/${name}_mod)
    list(APPEND dirs ${dir}/${name}_mod)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dirs}
    COMMAND ${PROJECT_BINARY_DIR}/bin/${wrapper} -O2 -g -Wall -shared -fPIC ${extra} ${src}
            -o ${out} ${P_UNPARSED_ARGUMENTS}
    DEPENDS ${src} ${deps} ${P_DEPENDS}
    COMMENT "${wrapper} -shared ${source}" VERBATIM)
  add_custom_target(library_${name} ALL DEPENDS ${out})
endfunction()

# Runs programs/<PROGRAM>.sim with ARGS and checks its exit status (EXIT, default 0) and output
# (STDOUT / STDERR regular expressions that must match, NOT_STDERR ones that must not).
function(simmpi_program_test test_name)
  cmake_parse_arguments(T "" "PROGRAM;EXIT;LABEL" "ARGS;STDOUT;STDERR;NOT_STDERR" ${ARGN})
  if(NOT T_EXIT)
    set(T_EXIT 0)
  endif()
  if(NOT T_LABEL)
    set(T_LABEL quick)
  endif()
  set(checks --exit ${T_EXIT})
  foreach(re IN LISTS T_STDOUT)
    list(APPEND checks --stdout ${re})
  endforeach()
  foreach(re IN LISTS T_STDERR)
    list(APPEND checks --stderr ${re})
  endforeach()
  foreach(re IN LISTS T_NOT_STDERR)
    list(APPEND checks --not-stderr ${re})
  endforeach()
  add_test(NAME ${test_name}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/run_program.sh ${checks} --
            ${PROJECT_BINARY_DIR}/programs/${T_PROGRAM}.sim ${T_ARGS})
  set_tests_properties(${test_name} PROPERTIES LABELS "e2e;${T_LABEL}" TIMEOUT 300)
endfunction()

