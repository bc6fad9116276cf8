# SPDX-License-Identifier: Apache-2.0
# Helpers to build MPI programs with simmpicc and run them as tests (examples/ and tests/).

# Builds an MPI program with the compiler wrapper (simmpicc for .c, simmpicxx otherwise) into
# programs/<name>.sim, exactly as a user would.
function(simmpi_program name source)
  get_filename_component(ext ${source} LAST_EXT)
  if(ext STREQUAL ".c")
    set(wrapper ${PROJECT_BINARY_DIR}/bin/simmpicc)
  else()
    set(wrapper ${PROJECT_BINARY_DIR}/bin/simmpicxx)
  endif()
  get_filename_component(src ${source} ABSOLUTE)
  set(out ${PROJECT_BINARY_DIR}/programs/${name}.sim)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/programs
    COMMAND ${wrapper} -O2 -g -Wall ${src} -o ${out} ${ARGN}
    DEPENDS ${src} simmpi simmpi_start ${PROJECT_SOURCE_DIR}/tools/simmpicc.in
            ${PROJECT_SOURCE_DIR}/libsimmpi/include/mpi.h
    COMMENT "simmpicc ${source}" VERBATIM)
  add_custom_target(program_${name} ALL DEPENDS ${out})
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

