#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds simmpi, compiles an unmodified MPI program (a 2-D heat-diffusion stencil)
# with simmpicc, and runs it as 64 ranks on the embedded default platform.
set -e
top=$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/build.sh"
"$build/bin/simmpicc" -O2 "$top/examples/stencil2d.c" -o "$build/stencil2d.sim" -lm
echo "+ $build/stencil2d.sim -n 64 256 100"
"$build/stencil2d.sim" -n 64 256 100
