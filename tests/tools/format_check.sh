#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Every C and C++ source of the tree follows .clang-format. Prints the files that do not and the
# command that fixes them.
#   format_check.sh CLANG_FORMAT SOURCE_DIR
set -euo pipefail
clang_format=$1
cd "$2"
if [ -e .git ]; then
  mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')
else
  mapfile -t files < <(find . -path ./build -prune -o \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \
                              -o -name '*.hpp' \) -print)
fi
bad=()
for f in "${files[@]}"; do
  "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "format_check: ${#bad[@]} of ${#files[@]} files do not follow .clang-format:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "fix: $clang_format -i ${bad[*]}" >&2
  exit 1
fi
echo "format_check: ${#files[@]} files follow .clang-format"
