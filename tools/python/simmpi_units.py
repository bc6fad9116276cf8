# SPDX-License-Identifier: Apache-2.0
# Quantities with units as the simulator reads them ("100Gbps", "1.5us", "64KiB"), for the Python
# tools that compute with platform values (simmpi-uq samples them). The tables are those of
# runtime/config/units.cpp; the test uq_units_match_simulator checks that they stay the same.
import re

# Multiply the number by the factor to get the base unit: s, B/s, B, Hz, flop/s.
UNITS = {
    "time": {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0},
    "bandwidth": {
        "bps": 1.0 / 8, "Kbps": 1e3 / 8, "kbps": 1e3 / 8, "Mbps": 1e6 / 8, "Gbps": 1e9 / 8,
        "Tbps": 1e12 / 8, "b/s": 1.0 / 8, "Kb/s": 1e3 / 8, "kb/s": 1e3 / 8, "Mb/s": 1e6 / 8,
        "Gb/s": 1e9 / 8, "Tb/s": 1e12 / 8, "B/s": 1.0, "KB/s": 1e3, "kB/s": 1e3, "MB/s": 1e6,
        "GB/s": 1e9, "TB/s": 1e12, "KiB/s": 1024.0, "MiB/s": 1048576.0, "GiB/s": 1073741824.0,
        "TiB/s": 1099511627776.0, "Bps": 1.0, "KBps": 1e3, "MBps": 1e6, "GBps": 1e9,
        "TBps": 1e12},
    "size": {"B": 1.0, "KB": 1e3, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1024.0,
             "MiB": 1048576.0, "GiB": 1073741824.0, "TiB": 1099511627776.0},
    "frequency": {"Hz": 1.0, "kHz": 1e3, "KHz": 1e3, "MHz": 1e6, "GHz": 1e9},
    "flop rate": {
        "flops": 1.0, "Kflops": 1e3, "Mflops": 1e6, "Gflops": 1e9, "Tflops": 1e12,
        "Pflops": 1e15, "flop/s": 1.0, "KFlop/s": 1e3, "MFlop/s": 1e6, "GFlop/s": 1e9,
        "TFlop/s": 1e12, "PFlop/s": 1e15, "Gflop/s": 1e9, "Tflop/s": 1e12, "Pflop/s": 1e15},
}
BASE_UNIT = {"time": "s", "bandwidth": "B/s", "size": "B", "frequency": "Hz",
             "flop rate": "flops"}
EXAMPLE = {"time": "90ns", "bandwidth": "100Gbps", "size": "64KiB", "frequency": "2.7GHz",
           "flop rate": "3.2Tflops"}
_NUMBER = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


def parse_quantity(text, kind):
    """The value of `text` in kind's base unit; ValueError saying what is wrong otherwise."""
    m = _NUMBER.match(str(text))
    if not m:
        raise ValueError(f"\"{text}\" is not a number followed by a unit; expected a {kind} "
                         f"such as \"{EXAMPLE[kind]}\"")
    unit = m.group(2)
    if not unit:
        raise ValueError(f"\"{text}\" has no unit; write a {kind} with one of "
                         f"{', '.join(UNITS[kind])}, e.g. \"{EXAMPLE[kind]}\"")
    if unit not in UNITS[kind]:
        raise ValueError(f"\"{text}\": unknown unit \"{unit}\" for a {kind}; use one of "
                         f"{', '.join(UNITS[kind])}, e.g. \"{EXAMPLE[kind]}\"")
    return float(m.group(1)) * UNITS[kind][unit]


def format_base(value, kind):
    """A value in kind's base unit as the simulator reads it, exactly (17 significant digits);
    sizes are whole bytes."""
    if kind == "size":
        return f"{round(value)}B"
    return f"{value:.17g}{BASE_UNIT[kind]}"


_HUMAN = {"time": [(1.0, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns"), (1e-12, "ps")],
          "bandwidth": [(1e12 / 8, "Tbps"), (1e9 / 8, "Gbps"), (1e6 / 8, "Mbps"), (1.0, "B/s")],
          "size": [(1099511627776.0, "TiB"), (1073741824.0, "GiB"), (1048576.0, "MiB"),
                   (1024.0, "KiB"), (1.0, "B")],
          "frequency": [(1e9, "GHz"), (1e6, "MHz"), (1e3, "kHz"), (1.0, "Hz")],
          "flop rate": [(1e15, "Pflops"), (1e12, "Tflops"), (1e9, "Gflops"), (1e6, "Mflops"),
                        (1.0, "flops")]}


def format_human(value, kind, digits=4):
    """A value in kind's base unit for people: in the largest unit where it is at least 1."""
    if kind not in _HUMAN:
        return f"{value:.{digits}g}"
    for factor, suffix in _HUMAN[kind]:
        if abs(value) >= factor:
            return f"{value / factor:.{digits}g}{suffix}"
    factor, suffix = _HUMAN[kind][-1]
    return f"{value / factor:.{digits}g}{suffix}"
