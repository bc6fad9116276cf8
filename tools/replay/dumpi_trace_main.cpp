// SPDX-License-Identifier: Apache-2.0
// simmpi-dumpi-trace PREFIX.meta DIR [--compute-scale R] [--skip-unknown]: an SST DUMPI trace as
// a call trace for simmpi-replay (which runs it for a trace it is given; docs/replay.md).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/replay/dumpi_converter.hpp"
#include "tools/replay/dumpi_file.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: simmpi-dumpi-trace PREFIX.meta DIR [--compute-scale R] [--skip-unknown]\n"
               "  PREFIX.meta  a DUMPI trace's metadata file (beside PREFIX-0000.bin...)\n"
               "  DIR          the call trace to write (must not exist)\n"
               "  --compute-scale R  simulated seconds per second of the trace's time\n"
               "                     between MPI calls (default 1)\n"
               "  --skip-unknown     skip records simmpi does not replay instead of stopping\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string meta, out;
  simmpi::replay::DumpiOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--skip-unknown") {
      o.skip_unknown = true;
    } else if (a == "--compute-scale" && i + 1 < argc) {
      char* end = nullptr;
      o.compute_scale = std::strtod(argv[++i], &end);
      if (*end || !(o.compute_scale >= 0)) {
        std::fprintf(stderr, "simmpi-dumpi-trace: --compute-scale %s: expected a number >= 0\n",
                     argv[i]);
        return 2;
      }
    } else if (a[0] == '-') {
      return usage();
    } else if (meta.empty()) {
      meta = a;
    } else if (out.empty()) {
      out = a;
    } else {
      return usage();
    }
  }
  if (out.empty()) return usage();
  try {
    const auto s = simmpi::replay::convert_dumpi(meta, out, o);
    std::fprintf(stderr, "simmpi-dumpi-trace: %s: %d ranks, %llu records in %s\n", meta.c_str(),
                 s.ranks, static_cast<unsigned long long>(s.records), out.c_str());
    for (const auto& [record, n] : s.skipped)
      std::fprintf(stderr, "simmpi-dumpi-trace: skipped %llu %s records (--skip-unknown)\n",
                   static_cast<unsigned long long>(n), record.c_str());
  } catch (const simmpi::replay::DumpiError& e) {
    std::fprintf(stderr, "simmpi-dumpi-trace: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
