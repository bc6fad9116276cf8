# SPDX-License-Identifier: Apache-2.0
# Where simmpi-hpl's HPL comes from: a tarball or a directory the user gives (official HPL 2.x
# with its own main, or hpcc whose hpl/ holds HPL with an HPL_main entry point), or by default
# the .orig tarball of Debian's hpcc source package, fetched with apt-get from the deb-src
# counterparts of the machine's own apt sources into a private apt directory in the cache.
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from simmpi_tool_util import ToolError, cache_dir

MARKERS = ["include/hpl.h", "src/pgesv/HPL_pdgesv.c", "testing/ptest/HPL_pddriver.c"]


@dataclass
class HplSource:
    root: Path    # the directory holding include/, src/ and testing/
    flavour: str  # "hpl": HPL_pddriver.c has main; "hpcc": it has HPL_main
    label: str    # for messages and the build directory's name


def obtain(source, verbose=False):
    if source is None:
        return from_tarball(debian_hpcc_tarball(verbose), "Debian's hpcc source package")
    path = Path(source)
    if path.is_dir():
        return from_dir(path, path.resolve().name, f"--source {source}")
    if not path.exists():
        raise ToolError(f"--source {source}: no such file or directory")
    if not tarfile.is_tarfile(path):
        raise ToolError(f"--source {source}: neither a directory nor a tar archive; give HPL's "
                        "or hpcc's sources as a tarball (.tar.gz) or an unpacked directory")
    return from_tarball(path, f"--source {source}")


def hpl_prefix(names):
    """The path prefix under which a tarball's member names hold HPL, or None."""
    names = set(n.rstrip("/") for n in names)
    for name in names:
        if name.endswith("/" + MARKERS[0]) or name == MARKERS[0]:
            prefix = name[: len(name) - len(MARKERS[0])]
            if all(prefix + m in names for m in MARKERS[1:]):
                return prefix
    return None


def from_tarball(tarball, origin):
    with tarfile.open(tarball) as tf:
        if hpl_prefix(tf.getnames()) is None:
            raise ToolError(f"{origin} ({tarball}) does not hold HPL: no directory in it has "
                            f"{', '.join(MARKERS)}; give HPL 2.x or hpcc")
        digest = hashlib.sha1(Path(tarball).read_bytes()).hexdigest()[:12]
        stem = re.sub(r"(\.orig)?\.(tar\.\w+|tgz|tar)$", "", Path(tarball).name)
        dest = cache_dir() / "src" / f"{stem}-{digest}"
        if not (dest / ".complete").exists():
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir(parents=True)
            if hasattr(tarfile, "data_filter"):
                tf.extractall(dest, filter="data")
            else:
                tf.extractall(dest)
            (dest / ".complete").touch()
    return from_dir(dest, stem, origin)


def find_root(top):
    for dirpath, dirnames, _ in os.walk(top):
        d = Path(dirpath)
        if all((d / m).is_file() for m in MARKERS):
            return d
        if len(d.relative_to(top).parts) >= 3:
            dirnames.clear()
    return None


def from_dir(top, label, origin):
    root = find_root(top)
    if root is None:
        raise ToolError(f"{origin} does not hold HPL: no directory in it has "
                        f"{', '.join(MARKERS)}; give HPL 2.x or hpcc")
    driver = (root / MARKERS[2]).read_text(errors="replace")
    if re.search(r"\bHPL_main\b", driver):
        flavour = "hpcc"
    elif re.search(r"\bmain\s*\(", driver):
        flavour = "hpl"
    else:
        raise ToolError(f"{origin}: {root / MARKERS[2]} defines neither main nor HPL_main")
    return HplSource(root=root, flavour=flavour, label=label)


def deb822_paragraphs(text):
    paragraphs, fields, key = [], {}, None
    for line in text.splitlines() + [""]:
        if not line.strip():
            if fields:
                paragraphs.append(fields)
            fields, key = {}, None
        elif line.startswith("#"):
            continue
        elif line[0] in " \t" and key:
            fields[key] += "\n" + line
        elif ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    return paragraphs


def one_line_entries(text):
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s*(.*)", line)
        if not m:
            continue
        entry = {"Types": "deb", "URIs": m.group(2), "Suites": m.group(3),
                 "Components": m.group(4)}
        signed = re.search(r"signed-by=(\S+)", m.group(1) or "")
        if signed:
            entry["Signed-By"] = signed.group(1).rstrip("]")
        out.append(entry)
    return out


def deb_src_sources(etc=Path("/etc/apt")):
    """deb822 text of deb-src entries for the base suites of the machine's deb sources."""
    entries = []
    for f in sorted((etc / "sources.list.d").glob("*.sources")):
        entries += [p for p in deb822_paragraphs(f.read_text()) if "deb" in p.get("Types", "")]
    for f in [etc / "sources.list"] + sorted((etc / "sources.list.d").glob("*.list")):
        if f.is_file():
            entries += one_line_entries(f.read_text())
    out = []
    for e in entries:
        suites = e.get("Suites", "").split()
        base = [s for s in suites if "-" not in s and "/" not in s] or suites
        if not base or not e.get("URIs"):
            continue
        lines = ["Types: deb-src", f"URIs: {e['URIs']}", f"Suites: {' '.join(base)}",
                 f"Components: {e.get('Components', 'main')}"]
        if "Signed-By" in e:
            lines.append(f"Signed-By: {e['Signed-By']}")
        out.append("\n".join(lines))
    if not out:
        raise ToolError("no apt source in /etc/apt to derive a deb-src entry from; download "
                        "HPL or hpcc yourself and give it with --source")
    return "\n\n".join(out) + "\n"


def apt_get(apt_dir, args, cwd=None):
    cmd = ["apt-get", "-q", "-o", "Dir::Etc::SourceList=/dev/null",
           "-o", f"Dir::Etc::SourceParts={apt_dir}/parts", "-o", f"Dir::State::Lists={apt_dir}/lists",
           "-o", f"Dir::Cache={apt_dir}/cache"]
    if os.geteuid() == 0:
        cmd += ["-o", "APT::Sandbox::User=root"]
    return subprocess.run(cmd + args, cwd=cwd, capture_output=True, text=True)


def debian_hpcc_tarball(verbose):
    d = cache_dir() / "debian-hpcc"
    found = sorted(d.glob("hpcc_*.orig.tar.gz"))
    if found:
        return found[-1]
    if shutil.which("apt-get") is None:
        raise ToolError("apt-get is not available to fetch Debian's hpcc sources; give HPL "
                        "with --source")
    print(f"simmpi-hpl: fetching Debian's hpcc source package into {d}", file=sys.stderr)
    for sub in ["parts", "lists/partial", "cache/archives/partial"]:
        (d / sub).mkdir(parents=True, exist_ok=True)
    (d / "parts" / "deb-src.sources").write_text(deb_src_sources())
    r = apt_get(d, ["update"])
    if verbose or r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
    if r.returncode != 0:
        raise ToolError("apt-get update of the deb-src entries failed (above); give HPL with "
                        "--source")
    # The .orig tarball is what matters; the Debian packaging may be missing from the mirror.
    r = apt_get(d, ["source", "--download-only", "hpcc"], cwd=d)
    found = sorted(d.glob("hpcc_*.orig.tar.gz"))
    if not found:
        raise ToolError(f"apt-get source hpcc did not download hpcc's .orig tarball:\n"
                        f"{r.stderr.strip()}\ngive HPL with --source")
    return found[-1]
