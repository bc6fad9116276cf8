#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# DUMPI traces recorded by DUMPI's own library (libdumpi, sst-dumpi, built by hand: it is not in
# Debian and never committed) on a real MPI, replayed: the replay of replay/dumpi_mix.c's trace
# with --compute-scale 0 (the program computes nothing; its host's time between calls is
# dropped) makes the calls the program makes online, so its simulated time must be the online
# simulated run's, to the picosecond. Skipped (77) unless SIMMPI_DUMPI_LIB names the directory
# of libdumpi.so, e.g. after building sst-dumpi with --enable-libdumpi under MPICH:
#   SIMMPI_DUMPI_LIB=/tmp/sst-dumpi/dumpi/libdumpi/.libs ctest -R replay_dumpi_native
#   dumpi_native_test.sh SIMMPI_REPLAY DUMPI_MIX.sim DUMPI_MIX.c [RANKS]
set -u
replay=$1 sim=$2 source=$3 ranks=${4:-4}
if [ -z "${SIMMPI_DUMPI_LIB:-}" ]; then
  echo "dumpi_native: skipped: SIMMPI_DUMPI_LIB (the directory of DUMPI's libdumpi.so) is not set"
  exit 77
fi
mpicc=$(command -v mpicc.mpich || command -v mpicc)
mpiexec=$(command -v mpiexec.mpich || command -v mpiexec)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mpicc" -O1 "$source" -o "$tmp/dumpi_mix" -L"$SIMMPI_DUMPI_LIB" -ldumpi \
  -Wl,-rpath,"$SIMMPI_DUMPI_LIB" 2>"$tmp/build.err" ||
  { echo "FAIL: building $source against libdumpi"; cat "$tmp/build.err"; exit 1; }
simulated() { sed -nE 's/^simmpi: [0-9]+ ranks, simulated time ([0-9.]+) s.*/\1/p' "$1"; }
fails=0
for part in pingpong collectives nonblocking; do
  mkdir "$tmp/$part"
  (cd "$tmp/$part" && "$mpiexec" -n "$ranks" "$tmp/dumpi_mix" "$part") >"$tmp/$part.native" 2>&1 ||
    { echo "FAIL: $part: the native run under libdumpi"; cat "$tmp/$part.native"; fails=1; continue; }
  meta=$(ls "$tmp/$part"/*.meta)
  SIMMPI_SET=runtime.host_time=ignore "$sim" -n "$ranks" -- "$part" 2>"$tmp/$part.online" >/dev/null
  "$replay" "$meta" --compute-scale 0 2>"$tmp/$part.replay" >/dev/null
  "$replay" "$meta" 2>"$tmp/$part.measured" >/dev/null || cat "$tmp/$part.measured"
  online=$(simulated "$tmp/$part.online") replayed=$(simulated "$tmp/$part.replay")
  if [ -z "$online" ] || [ "$online" != "$replayed" ]; then
    echo "FAIL: $part: online ${online:-?} s, DUMPI trace replayed ${replayed:-?} s"
    cat "$tmp/$part.online" "$tmp/$part.replay"
    fails=1
  else
    echo "ok: $part: online $online s, DUMPI trace replayed $replayed s;" \
         "with the measured time between calls $(simulated "$tmp/$part.measured") s"
  fi
done
[ $fails = 0 ] && echo "dumpi_native: OK"
exit $fails
