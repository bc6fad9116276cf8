#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages simmpi builds with, when any is missing (Debian 12).
# Used by tools/run-demo.sh and tools/run-tests.sh; safe to run again.
set -e
packages=(cmake make g++ gcc gfortran pkg-config python3 clang-format libboost-context-dev
          libeigen3-dev libtomlplusplus-dev libffi-dev libgtest-dev libopenblas-dev
          libopen-trace-format2-dev otf2-tools libisal-dev
          autoconf dpkg-dev python3-matplotlib chromium libzstd-dev python3-numpy
          python3-scipy python3-emcee python3-sklearn python3-mpi4py slurm-wlm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
