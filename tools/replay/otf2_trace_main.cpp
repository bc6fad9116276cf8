// SPDX-License-Identifier: Apache-2.0
// simmpi-otf2-trace ARCHIVE DIR [--compute-scale R] [--skip-unknown]: an OTF2 archive as a call
// trace for simmpi-replay (which runs it for an archive it is given; docs/replay.md).
#include <sys/stat.h>

#include <string>

#include "tools/replay/converter_main.hpp"
#include "tools/replay/otf2_converter.hpp"

namespace {

// An archive's directory stands for its anchor file.
std::string anchor_file(std::string archive) {
  struct stat st;
  if (stat(archive.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) archive += "/traces.otf2";
  return archive;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace simmpi::replay;
  const ConverterCommand cmd{
      "simmpi-otf2-trace",
      "usage: simmpi-otf2-trace ARCHIVE DIR [--compute-scale R] [--skip-unknown]\n"
      "  ARCHIVE   an OTF2 archive: its directory or its anchor file (traces.otf2)\n"
      "  DIR       the call trace to write (must not exist)\n"
      "  --compute-scale R  simulated seconds per second of the archive's compute\n"
      "                     between MPI calls (default 1)\n"
      "  --skip-unknown     skip events simmpi does not replay instead of stopping\n",
      "events", &anchor_file};
  return converter_main<Otf2Error>(argc, argv, cmd, &convert_otf2);
}
