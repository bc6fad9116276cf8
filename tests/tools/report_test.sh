#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# --report makes one self-contained HTML page of the run (profile, critical path, link load over
# time, traffic matrix), byte-identical on rerun, and a real browser renders it: headless
# Chromium lays out every plot (the page's script counts them), raises no script error, and its
# screenshot is not empty. A broken page is caught by the same checks.
#   report_test.sh BUILD_DIR PROGRAM
build=$1
program=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cd "$work" || exit 1
"$program" -n 16 --report --set network.topology=fat_tree --set "network.fat_tree.down=[4, 4]" \
  >out 2>err || { echo "FAIL: the run exited $?"; cat err; exit 1; }
grep -q "simmpi: report: simmpi_report.html" err || { echo "FAIL: the report is not named"; fail=1; }
page=simmpi_report.html
for section in "Per rank" "MPI functions" "Communicators" "Critical path" \
               "Link load over time" "Busiest links" "Traffic matrix"; do
  grep -q "<h2>$section</h2>" "$page" || { echo "FAIL: no section $section"; fail=1; }
done
grep -q "Not recorded" "$page" && { echo "FAIL: --report left a section without data"; fail=1; }
grep -Eq '(src|href)="(https?:)?//' "$page" && { echo "FAIL: the page loads something from the network"; fail=1; }
mv "$page" first.html
"$program" -n 16 --report --set network.topology=fat_tree --set "network.fat_tree.down=[4, 4]" \
  >/dev/null 2>&1
cmp -s first.html "$page" || { echo "FAIL: the report differs on rerun"; fail=1; }

# render FILE: Chromium's DOM after scripts ran (stdout) and its log (FILE.log).
render() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium" \
    --enable-logging=stderr --v=0 --dump-dom "file://$work/$1" 2>"$work/$1.log"
}
if ! command -v chromium >/dev/null; then
  echo "FAIL: chromium is not installed (tools/setup-deps.sh installs it)"; exit 1
fi
plots=$(grep -o "<svg" "$page" | wc -l)
dom=$(render "$page")
grep -q "data-rendered=\"$plots\"" <<<"$dom" ||
  { echo "FAIL: Chromium did not lay out the $plots plots: $(grep -o 'data-rendered="[0-9]*"' <<<"$dom")"; fail=1; }
grep -qi "uncaught\|CONSOLE.*error" "$page.log" && { echo "FAIL: script errors:"; grep -i "console" "$page.log"; fail=1; }
timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium" \
  --window-size=1100,3000 --screenshot="$work/shot.png" "file://$work/$page" >/dev/null 2>&1
size=$(stat -c %s shot.png 2>/dev/null || echo 0)
[ "$size" -gt 20000 ] || { echo "FAIL: screenshot of $size bytes"; fail=1; }
# The same checks catch a broken page.
sed 's/document.body.dataset.rendered/document.body.dataset.missing.rendered/' "$page" >broken.html
render broken.html | grep -q "data-rendered=" && { echo "FAIL: a broken script went unnoticed"; fail=1; }
grep -qi "uncaught" broken.html.log || { echo "FAIL: the script error was not seen in the log"; fail=1; }
# With --timeline too, the page draws the timeline, and simmpi-report draws it alone as a PNG.
mkdir tl
(cd tl && "$program" -n 4 --timeline --report >/dev/null 2>err) || { echo "FAIL: the run with --timeline"; fail=1; }
grep -q "<h2>Timeline</h2>" tl/simmpi_report.html || { echo "FAIL: no Timeline section with --timeline"; fail=1; }
grep -q "<h2>Timeline</h2>" "$page" && { echo "FAIL: a Timeline section without --timeline"; fail=1; }
"$build/bin/simmpi-report" tl --timeline-image "$work/timeline.png" 2>/dev/null ||
  { echo "FAIL: simmpi-report --timeline-image"; fail=1; }
size=$(stat -c %s timeline.png 2>/dev/null || echo 0)
[ "$size" -gt 10000 ] || { echo "FAIL: timeline image of $size bytes"; fail=1; }
"$build/bin/simmpi-report" tl --timeline-image "$work/timeline.jpg" 2>/dev/null &&
  { echo "FAIL: --timeline-image took a .jpg"; fail=1; }
[ $fail = 0 ] && echo "report_test: OK ($plots plots, screenshot $size bytes)"
exit $fail
