#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds simmpi in $BUILD_DIR (default: build/ at the top of the repository).
set -e
top=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/setup-deps.sh"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)"
