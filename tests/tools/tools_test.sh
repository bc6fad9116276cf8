#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Checks the user-facing tools as a user would drive them: simmpicc/simmpicxx (-c, separate
# linking, several sources, -o, -show), the launcher's options (--help, --print-config,
# --help-config, argv passing) and simmpirun.
#   tools_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
bin=$build/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() {  # expect "what" "regex" "text"
  grep -Eq -- "$2" <<<"$3" || fail "$1: output does not match /$2/: $3"
}

# simmpicc: separate compilation and linking, several sources at once, -show.
"$bin/simmpicc" -O1 -c "$src/tests/tools/two_files_main.c" -o "$work/main.o" || fail "simmpicc -c"
"$bin/simmpicc" -c "$src/tests/tools/two_files_helper.c" -o "$work/helper.o" || fail "simmpicc -c helper"
"$bin/simmpicc" "$work/main.o" "$work/helper.o" -o "$work/two.sim" || fail "simmpicc link"
out=$("$work/two.sim" -n 5 --quiet) || fail "two-file program exited $?"
expect "two-file program" "total=10 expected=10" "$out"
"$bin/simmpicc" "$src/tests/tools/two_files_main.c" "$src/tests/tools/two_files_helper.c" \
  -o "$work/two_b.sim" || fail "simmpicc with two sources"
out=$("$work/two_b.sim" -n 3 --quiet)
expect "two sources at once" "total=3 expected=3" "$out"
show=$("$bin/simmpicc" -show app.c -o app.sim)
expect "simmpicc -show" "gcc .*-I.*libsimmpi/include.* app.c -o app.sim .*-lsimmpi" "$show"
show=$("$bin/simmpicc" -show -c app.c)
grep -q -- "-lsimmpi" <<<"$show" && fail "simmpicc -show -c should not link: $show"
show=$("$bin/simmpicxx" -show app.cpp)
expect "simmpicxx -show" "^g\+\+ " "$show"
show=$(SIMMPI_CC=clang "$bin/simmpicc" -show app.c)
expect "SIMMPI_CC" "^clang " "$show"
"$bin/simmpicc" --version >/dev/null || fail "simmpicc --version"

# The launcher: argv reaches main unchanged, with or without --.
"$bin/simmpicc" "$src/tests/tools/show_args.c" -o "$work/args.sim" || fail "build show_args"
out=$("$work/args.sim" -n 3 --quiet -- -n 7 "two words" --set x)
expect "argv after --" "^ranks=3 argc=6 \[-n\] \[7\] \[two words\] \[--set\] \[x\]$" "$out"
out=$("$work/args.sim" -n 2 --quiet first -n 9)
expect "argv after the first program argument" "^ranks=2 argc=4 \[first\] \[-n\] \[9\]$" "$out"
out=$("$work/args.sim" --quiet)
expect "default of one rank" "^ranks=1 argc=1$" "$out"
out=$("$bin/simmpirun" -n 4 --quiet "$work/args.sim" -n 2 --help)
expect "simmpirun passes every argument to the program" "^ranks=4 argc=4 \[-n\] \[2\] \[--help\]$" "$out"
out=$("$bin/simmpirun" -n 4 --hostfile hosts --bind-to core --map-by node --quiet "$work/args.sim" 2>&1)
expect "simmpirun accepts a job script's options" "^simmpirun: note: --hostfile hosts is ignored" "$out"
expect "simmpirun notes --bind-to" "note: --bind-to core is ignored" "$out"
expect "simmpirun runs the program after the notes" "ranks=4 argc=1" "$out"
out=$("$bin/simmpirun" -n 2 --map-by node -ppn 3 --print-config "$work/args.sim")
expect "--map-by node" 'placement = "round_robin"  # --set' "$out"
expect "-ppn" "ranks_per_node = 3  # --set" "$out"
printf 'int main(void) { return 0; }\n' | gcc -x c - -o "$work/foreign"
"$bin/simmpirun" -n 4 "$work/foreign" >/dev/null 2>"$work/err" && fail "simmpirun ran a foreign program"
expect "simmpirun refuses a program built without simmpi" "was not built with simmpi.*Rebuild it with simmpicc" "$(cat "$work/err")"
"$bin/simmpirun" -n 2 ./no-such-program 2>"$work/err" && fail "simmpirun ran a missing program"
expect "simmpirun names a missing program" "no-such-program: no such program" "$(cat "$work/err")"
out=$("$bin/simmpirun" -n 2 --set network.link_bw=1Gbps --print-config "$work/args.sim")
expect "simmpirun --set reaches the simulator" 'link_bw = "1Gbps"  # --set' "$out"

# --help documents every option; --print-config and --help-config work and exit 0.
help=$("$work/args.sim" --help) || fail "--help exited $?"
for opt in -n --platform --set --print-config --help-config --quiet --help; do
  grep -q -- "$opt" <<<"$help" || fail "--help does not mention $opt"
done
config=$("$work/args.sim" --print-config --set node.ranks_per_node=8) || fail "--print-config"
expect "--print-config" "ranks_per_node = 8  # --set" "$config"
echo "$config" >"$work/printed.toml"
again=$("$work/args.sim" --platform "$work/printed.toml" --print-config)
expect "a printed config loads back" "ranks_per_node = 8  # .*printed.toml:[0-9]+" "$again"
keys=$("$work/args.sim" --help-config) || fail "--help-config"
expect "--help-config" "network.link_bw \(bandwidth, default 100Gbps\)" "$keys"

# Platform presets by name: the file shipped in share/simmpi/platforms; an unknown name lists them.
config=$("$work/args.sim" --platform frontera --print-config) || fail "--platform frontera"
expect "preset frontera" "down = \[44, 182\]  # .*share/simmpi/platforms/frontera.toml" "$config"
config=$("$work/args.sim" --platform pupmaya.toml --print-config) || fail "--platform pupmaya.toml"
expect "preset pupmaya.toml" "down = \[18, 236\]" "$config"
"$work/args.sim" --platform frontier --print-config >/dev/null 2>"$work/err" &&
  fail "--platform frontier should not exist"
expect "unknown preset" "frontier: there is no such file and no preset of that name; presets: .*broadwell4.*frontera.*pupmaya" "$(cat "$work/err")"
mkdir -p "$work/mine" && printf '[node]\nranks_per_node = 3\n' >"$work/mine/lab.toml"
config=$(SIMMPI_PLATFORM_PATH="$work/mine" "$work/args.sim" --platform lab --print-config)
expect "SIMMPI_PLATFORM_PATH" "ranks_per_node = 3  # .*mine/lab.toml" "$config"

# docs/config.md is generated from the registry and must not be stale.
"$work/args.sim" --help-config=markdown >"$work/config.md"
diff -q "$work/config.md" "$src/docs/config.md" >/dev/null ||
  fail "docs/config.md is stale: regenerate it with ./app.sim --help-config=markdown > docs/config.md"

[ $failures -eq 0 ] && echo "tools_test: OK"
exit $failures
