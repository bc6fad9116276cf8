// SPDX-License-Identifier: Apache-2.0
// What converting a trace of a real run (OTF2, DUMPI) into a call trace takes and gives: the
// one set of options and the one summary that every converter in tools/replay shares.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace simmpi::replay {

struct ConversionOptions {
  // Simulated seconds per second of the trace's measured time between MPI calls.
  double compute_scale = 1.0;
  bool skip_unknown = false;  // skip what simmpi does not replay instead of stopping
};

struct ConversionSummary {
  int ranks = 0;
  std::uint64_t records = 0;
  std::map<std::string, std::uint64_t> skipped;  // the format's event or record name -> count
};

}  // namespace simmpi::replay
