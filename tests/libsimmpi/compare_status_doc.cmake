# SPDX-License-Identifier: Apache-2.0
# Fails when docs/status.md differs from what simmpi-mpi-status prints (cmake -P script: GENERATOR
# and EXPECTED are passed with -D).
execute_process(COMMAND ${GENERATOR} OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} failed with status ${rc}")
endif()
file(READ ${EXPECTED} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "docs/status.md is stale: regenerate it with "
                      "build/bin/simmpi-mpi-status > docs/status.md and commit it")
endif()
