// SPDX-License-Identifier: Apache-2.0
// simmpi-dumpi-trace PREFIX.meta DIR [--compute-scale R] [--skip-unknown]: an SST DUMPI trace as
// a call trace for simmpi-replay (which runs it for a trace it is given; docs/replay.md).
#include "tools/replay/converter_main.hpp"
#include "tools/replay/dumpi_converter.hpp"
#include "tools/replay/dumpi_file.hpp"

int main(int argc, char** argv) {
  using namespace simmpi::replay;
  const ConverterCommand cmd{
      "simmpi-dumpi-trace",
      "usage: simmpi-dumpi-trace PREFIX.meta DIR [--compute-scale R] [--skip-unknown]\n"
      "  PREFIX.meta  a DUMPI trace's metadata file (beside PREFIX-0000.bin...)\n"
      "  DIR          the call trace to write (must not exist)\n"
      "  --compute-scale R  simulated seconds per second of the trace's time\n"
      "                     between MPI calls (default 1)\n"
      "  --skip-unknown     skip records simmpi does not replay instead of stopping\n",
      "records"};
  return converter_main<DumpiError>(argc, argv, cmd, &convert_dumpi);
}
