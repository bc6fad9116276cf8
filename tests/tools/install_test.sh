#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `cmake --install` gives a usable prefix: its simmpicc builds and runs a program, and a CMake
# project finds simmpi with find_package(simmpi) and links simmpi::simmpi.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
"$work/prefix/bin/simmpicc" "$src/examples/ring.c" -o "$work/ring.sim"
out=$("$work/ring.sim" -n 6 --quiet)
grep -q "token 15 (expected 15)" <<<"$out" || { echo "FAIL: installed simmpicc: $out"; exit 1; }
mkdir "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(uses_simmpi C)
find_package(simmpi REQUIRED)
add_executable(ring.sim $src/examples/ring.c)
target_link_libraries(ring.sim PRIVATE simmpi::simmpi)
CMAKE
cmake -S "$work/project" -B "$work/project/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/project/build" >/dev/null
out=$("$work/project/build/ring.sim" -n 4 --quiet)
grep -q "token 6 (expected 6)" <<<"$out" || { echo "FAIL: find_package build: $out"; exit 1; }
echo "install_test: OK"
