# SPDX-License-Identifier: Apache-2.0
# Helpers shared by simmpi's Python tools (simmpi-hpl, simmpi-sweep): their error type, the cache
# directory, and the lookup of a platform by file name or preset name, which follows the same
# rules as the simulator's --platform (libsimmpi/launch/platform_presets.cpp).
import os
import sys
from pathlib import Path

PREFIX = Path(__file__).resolve().parents[3]  # <prefix>/share/simmpi/python/this file


class ToolError(Exception):
    """A user-facing error: printed as one message, then the tool exits with `status`."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


def fail(tool, error):
    print(f"{tool}: error: {error}", file=sys.stderr)
    sys.exit(error.status)


def cache_dir():
    """$SIMMPI_CACHE_DIR, else $XDG_CACHE_HOME/simmpi, else ~/.cache/simmpi."""
    if os.environ.get("SIMMPI_CACHE_DIR"):
        return Path(os.environ["SIMMPI_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "simmpi"


def preset_dirs():
    extra = [Path(d) for d in os.environ.get("SIMMPI_PLATFORM_PATH", "").split(":") if d]
    return extra + [PREFIX / "share" / "simmpi" / "platforms"]


def preset_names():
    return sorted({f.stem for d in preset_dirs() if d.is_dir() for f in d.glob("*.toml")})


def find_platform(value):
    """The platform file `value` names: an existing file or a path, else a preset's file."""
    path = Path(value)
    if path.is_file():
        return path.resolve()  # the tools may run the simulator in another directory
    if "/" in value:
        raise ToolError(f"--platform {value}: no such file")
    name = value[:-5] if value.endswith(".toml") else value
    for d in preset_dirs():
        if (d / f"{name}.toml").is_file():
            return d / f"{name}.toml"
    raise ToolError(f"--platform {value}: there is no such file and no preset of that name; "
                    f"presets: {', '.join(preset_names()) or 'none installed'}")
