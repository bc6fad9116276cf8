#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package (cpack -G DEB) holds what an installed prefix holds, under /usr, with
# simmpi's stand-in headers in /usr/include/simmpi; installed with dpkg, its simmpicc and its
# pkg-config file build a program that runs, and dpkg removes it again. Installing needs root
# and a system where no simmpi package is installed yet; elsewhere only the package's contents
# are checked, and the test says so.
#   debian_package_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
work=$(mktemp -d)
installed=0
cleanup() {
  [ "$installed" = 1 ] && dpkg -P simmpi >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && cpack -G DEB -B "$work/out" >"$work/log" 2>&1) || fail "cpack -G DEB: $(tail "$work/log")"
deb=$(ls "$work"/out/simmpi_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no .deb: $(tail "$work/log")"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/simmpicc ./usr/bin/simmpirun ./usr/include/simmpi/mpi.h ./usr/lib/libsimmpi.so \
         ./usr/lib/libsimmpi_start.a ./usr/lib/pkgconfig/simmpi.pc \
         ./usr/lib/cmake/simmpi/simmpiConfig.cmake ./usr/share/simmpi/platforms/frontera.toml; do
  grep -qxF -- "$f" <<<"$contents" || fail "the package lacks $f"
done
grep -qE '^\./usr/include/[^/]+\.h$' <<<"$contents" && fail "the package puts headers straight into /usr/include"

# One install at a time on this machine (several checkouts may run their suites at once): the
# lock is held until the package is removed again.
exec 9>/tmp/simmpi-debian-package-test.lock
if ! flock -w 300 9; then
  echo "debian_package_test: contents OK; not installed (another checkout's test held the lock for 5 minutes)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] ||
   dpkg-query -W -f="\${Status}" simmpi 2>/dev/null | grep -q "ok installed"; then
  echo "debian_package_test: contents OK; not installed (needs root and no simmpi package installed yet)"
  exit 0
fi
dpkg -i "$deb" >"$work/log" 2>&1 || fail "dpkg -i: $(tail "$work/log")"
installed=1
/usr/bin/simmpicc "$src/examples/ring.c" -o "$work/ring.sim" || fail "the installed simmpicc"
out=$("$work/ring.sim" -n 6 --quiet)
grep -q "token 15 (expected 15)" <<<"$out" || fail "a program built with the installed simmpicc: $out"
# shellcheck disable=SC2046  # the flags are words
gcc "$src/examples/ring.c" $(pkg-config --cflags --libs simmpi) -o "$work/ring_pc.sim" ||
  fail "a build with the installed pkg-config file"
out=$(/usr/bin/simmpirun -n 4 --quiet "$work/ring_pc.sim")
grep -q "token 6 (expected 6)" <<<"$out" || fail "the pkg-config build under simmpirun: $out"
dpkg -P simmpi >/dev/null 2>&1 || fail "dpkg -P simmpi"
installed=0
[ -e /usr/bin/simmpicc ] && fail "dpkg -P left /usr/bin/simmpicc behind"
echo "debian_package_test: OK (built, installed, used and removed)"
