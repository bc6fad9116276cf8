#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# f08_absent_test.sh SIMMPIF90 SOURCE: compiling SOURCE, which calls a procedure mpi_f08 does
# not provide, fails with an error that names the call and says why.
out=$("$1" -c "$2" -o /dev/null 2>&1)
if [ $? -eq 0 ]; then
  echo "FAIL: $2 compiled, but mpi_f08 has no MPI_Type_extent"
  exit 1
fi
for want in "call MPI_Type_extent" "not_provided_by_simmpi"; do
  if ! grep -q "$want" <<<"$out"; then
    echo "FAIL: the compiler's error does not say \"$want\":"
    echo "$out"
    exit 1
  fi
done
echo "f08_absent: a compile error naming the call"
