// SPDX-License-Identifier: Apache-2.0
// simmpi-otf2-trace ARCHIVE DIR [--compute-scale R] [--skip-unknown]: an OTF2 archive as a call
// trace for simmpi-replay (which runs it for an archive it is given; docs/replay.md).
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/replay/otf2_converter.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: simmpi-otf2-trace ARCHIVE DIR [--compute-scale R] [--skip-unknown]\n"
               "  ARCHIVE   an OTF2 archive: its directory or its anchor file (traces.otf2)\n"
               "  DIR       the call trace to write (must not exist)\n"
               "  --compute-scale R  simulated seconds per second of the archive's compute\n"
               "                     between MPI calls (default 1)\n"
               "  --skip-unknown     skip events simmpi does not replay instead of stopping\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string archive, out;
  simmpi::replay::Otf2Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--skip-unknown") {
      o.skip_unknown = true;
    } else if (a == "--compute-scale" && i + 1 < argc) {
      char* end = nullptr;
      o.compute_scale = std::strtod(argv[++i], &end);
      if (*end || !(o.compute_scale >= 0)) {
        std::fprintf(stderr, "simmpi-otf2-trace: --compute-scale %s: expected a number >= 0\n",
                     argv[i]);
        return 2;
      }
    } else if (a[0] == '-') {
      return usage();
    } else if (archive.empty()) {
      archive = a;
    } else if (out.empty()) {
      out = a;
    } else {
      return usage();
    }
  }
  if (out.empty()) return usage();
  struct stat st;
  if (stat(archive.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) archive += "/traces.otf2";
  try {
    const auto s = simmpi::replay::convert_otf2(archive, out, o);
    std::fprintf(stderr, "simmpi-otf2-trace: %s: %d ranks, %llu records in %s\n", archive.c_str(),
                 s.ranks, static_cast<unsigned long long>(s.records), out.c_str());
    for (const auto& [event, n] : s.skipped)
      std::fprintf(stderr, "simmpi-otf2-trace: skipped %llu %s events (--skip-unknown)\n",
                   static_cast<unsigned long long>(n), event.c_str());
  } catch (const simmpi::replay::Otf2Error& e) {
    std::fprintf(stderr, "simmpi-otf2-trace: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
