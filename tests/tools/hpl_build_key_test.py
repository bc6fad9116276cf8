#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# simmpi-hpl's build cache keys a build by the simmpi installation it is compiled against: HPL
# built by one prefix names that prefix's libsimmpi.so in its RUNPATH, so another prefix sharing
# the cache (SIMMPI_CACHE_DIR) must build its own instead of running the first one's library.
#   hpl_build_key_test.py BUILD_DIR/bin/simmpi-hpl
import importlib.machinery
import importlib.util
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

tool = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("simmpi_hpl", tool)
spec = importlib.util.spec_from_loader("simmpi_hpl", loader)
hpl = importlib.util.module_from_spec(spec)
loader.exec_module(hpl)

with tempfile.TemporaryDirectory() as d:
    src = SimpleNamespace(root=Path(d), flavour="hpcc")
    args = SimpleNamespace(detailed_timing=False)
    cc = hpl.PREFIX / "bin" / "simmpicc"
    own = hpl.build_key(src, cc, args)
    again = hpl.build_key(src, cc, args, prefix=hpl.PREFIX)
    other_prefix = Path(d) / "other"
    (other_prefix / "include").mkdir(parents=True)
    other = hpl.build_key(src, cc, args, prefix=other_prefix)
    timed = hpl.build_key(src, cc, SimpleNamespace(detailed_timing=True))
if own != again:
    sys.exit(f"FAIL: the same inputs gave two keys: {own} {again}")
if own == other:
    sys.exit(f"FAIL: two installations share the build key {own}")
if own == timed:
    sys.exit(f"FAIL: --detailed-timing (other flags) shares the build key {own}")
print(f"hpl_build_key: OK ({own}, another prefix {other})")
