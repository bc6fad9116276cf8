// SPDX-License-Identifier: Apache-2.0
// The host that runs the simulation, as a compute node: the model that host time measured on it
// is translated from (hardware/compute/host_translation.hpp). Its figures are measured once by
// a short built-in calibration (under a second) and cached per host, in
// $SIMMPI_CACHE_DIR, else $XDG_CACHE_HOME/simmpi, else ~/.cache/simmpi, as
// host-<hostname>.toml, which also names the CPU so a cache shared between hosts (a home
// directory on NFS) is never applied to the wrong one.
#pragma once

#include <string>

namespace simmpi::hardware {

struct HostModel {
  std::string host;            // the host's name
  std::string cpu;             // /proc/cpuinfo's model name
  double tsc_hz = 0;           // time-stamp counter rate (the burst clock's unit), never cached
  double clock_hz = 0;         // core clock under scalar integer code (1 dependent add per cycle)
  double core_flops = 0;       // double-precision flop/s of one core with the widest FMA it has
  double core_memory_Bps = 0;  // memory bandwidth one core draws alone (STREAM triad, 24 B/elt)

  // Runs the calibration kernels on this thread (about half a second).
  static HostModel measure();
  // Memory bandwidth of the whole host with `cores` processes streaming at once (the STREAM
  // triad in `cores` child processes for about half a second): what the ranks of a full node
  // share. Not part of measure() or the cache (it takes every core): simmpi-calibrate writes it
  // as the host platform's node.memory_bw.
  static double measure_node_memory_Bps(int cores);
  // The time-stamp counter's rate against the system's clock, over 5 ms. Measured at every run:
  // a virtual machine may move to another host between two runs.
  static double measure_tsc_hz();
  // The cached model of this host (tsc_hz measured afresh), measured and cached first when
  // there is none or `refresh`.
  // Throws ConfigError naming the file when it is corrupt or describes another host or CPU.
  static HostModel load_or_measure(bool refresh);
  // The cache file's path for this host.
  static std::string cache_path();

  std::string to_toml() const;
  // Throws ConfigError naming `source` and the bad or missing key.
  static HostModel from_toml(const std::string& text, const std::string& source);
};

}  // namespace simmpi::hardware
