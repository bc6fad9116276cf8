#!/bin/bash
# Regenerates docs/figures/timeline_viewer.png and timeline_viewer_halo.png: simmpi's Chrome
# trace-event timeline in catapult's trace viewer (the engine of chrome://tracing), screenshotted
# by headless Chromium. Not run by CI: it needs a checkout of catapult, third-party code that is
# never committed (git clone https://chromium.googlesource.com/catapult, or a local mirror).
#
#   tools/docs/timeline_viewer_shot.sh CATAPULT_DIR [BUILD_DIR (default build)]
#
# catapult's tracing/bin/trace2html turns each file into one self-contained page (viewer and
# trace; it runs with Debian 12's python3 as it is), and tools/docs/catapult_shot.py loads the
# page over the DevTools protocol, prints what the viewer's importer said (its import warnings),
# ticks the "Flow events" boxes, shows a window and selects a slice. Both runs ignore host time,
# so the pictures are the same on every machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
catapult=${1:?usage: $0 CATAPULT_DIR [BUILD_DIR]}
build=$(cd "${2:-$repo/build}" && pwd)
trace2html="$catapult/tracing/bin/trace2html"
[ -f "$trace2html" ] || { echo "$0: no tracing/bin/trace2html in $catapult" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
timeline="--set runtime.host_time=ignore --set report.timeline=chrome"

# HPL's model on 2x2 ranks, its first 8 ms; the picture shows 3.5-7.5 ms (a panel's broadcast
# along the rows, the trailing update in simmpi_poll_rounds) with one MPI_Send's arguments.
"$build/bin/simmpi-hpl" --n 3000 --nb 96 --p 2 --q 2 $timeline \
  --set report.timeline_file="$work/hpl.json" --set report.timeline_window=..8ms >/dev/null
/usr/bin/python3 "$trace2html" hpl.json --output hpl.html --quiet \
  --title "simmpi-hpl: HPL N=3000 NB=96 on 2x2 ranks"
/usr/bin/python3 "$here/catapult_shot.py" hpl.html "$repo/docs/figures/timeline_viewer.png" \
  --window 3.5..7.5 --select MPI_Send@6

# The 2-D stencil example on 4 ranks: halo messages (Isend to Waitall) and an Allreduce.
"$build/programs/stencil2d.sim" -n 4 --quiet $timeline --set report.timeline_file="$work/stencil.json" \
  -- 256 20 >/dev/null
/usr/bin/python3 "$trace2html" stencil.json --output stencil.html --quiet \
  --title "stencil2d (256x256, 20 steps) on 4 ranks"
/usr/bin/python3 "$here/catapult_shot.py" stencil.html \
  "$repo/docs/figures/timeline_viewer_halo.png" --window 0.008..0.020 --select MPI_Waitall@0.010
