#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Builds simmpi and runs the whole test suite (unit and end-to-end tests; benchmarks are not
# tests and are left out). Extra arguments go to ctest, e.g. -R collectives.
set -e
top=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
