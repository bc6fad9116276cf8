#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Rejects #includes that point up the layer stack (STYLE.md section 1):
#   runtime/  <-  hardware/  <-  libsimmpi/, libsimblas/  <-  tools/, examples/
# A layer may include its own folder and the layers below it; tests/ may include anything.
#   check_layers.sh [SOURCE_DIR]
top=${1:-$(CDPATH= cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$top" || exit 2
status=0
check() {  # check LAYER FORBIDDEN...
  local layer=$1
  shift
  for f in "$@"; do
    hits=$(grep -rnE "^#include \"$f/" "$layer" --include='*.hpp' --include='*.cpp' --include='*.h' --include='*.c' 2>/dev/null)
    if [ -n "$hits" ]; then
      echo "layer violation: $layer/ includes $f/ (which sits above it):"
      echo "$hits" | sed 's/^/  /'
      status=1
    fi
  done
}
check runtime hardware libsimmpi libsimblas tools examples
check hardware libsimmpi libsimblas tools examples
check libsimmpi libsimblas tools examples
check libsimblas libsimmpi tools examples
[ $status -eq 0 ] && echo "check_layers: OK"
exit $status
