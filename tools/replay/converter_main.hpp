// SPDX-License-Identifier: Apache-2.0
// The command line that simmpi-otf2-trace and simmpi-dumpi-trace share: INPUT DIR
// [--compute-scale R] [--skip-unknown], a conversion into a call trace for simmpi-replay, and
// one summary line (plus one per kind of skipped event) on stderr.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/replay/conversion.hpp"

namespace simmpi::replay {

struct ConverterCommand {
  const char* tool;   // "simmpi-otf2-trace"
  const char* usage;  // the whole usage text
  const char* unit;   // what the format calls its entries: "events", "records"
  // The input as the converter wants it (an OTF2 archive's directory -> its anchor file).
  std::string (*normalize_input)(std::string) = nullptr;
};

// Parses the arguments into ConversionOptions, then runs convert(input, out, options), which
// returns a ConversionSummary or throws `Error`. Returns main's exit status: 0, 1 (a conversion
// error) or 2 (a usage error).
template <class Error, class Convert>
int converter_main(int argc, char** argv, const ConverterCommand& cmd, Convert convert) {
  auto usage = [&] {
    std::fputs(cmd.usage, stderr);
    return 2;
  };
  std::string input, out;
  ConversionOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--skip-unknown") {
      o.skip_unknown = true;
    } else if (a == "--compute-scale" && i + 1 < argc) {
      char* end = nullptr;
      o.compute_scale = std::strtod(argv[++i], &end);
      if (*end || !(o.compute_scale >= 0)) {
        std::fprintf(stderr, "%s: --compute-scale %s: expected a number >= 0\n", cmd.tool, argv[i]);
        return 2;
      }
    } else if (a[0] == '-') {
      return usage();
    } else if (input.empty()) {
      input = a;
    } else if (out.empty()) {
      out = a;
    } else {
      return usage();
    }
  }
  if (out.empty()) return usage();
  if (cmd.normalize_input) input = cmd.normalize_input(input);
  try {
    const auto s = convert(input, out, o);
    std::fprintf(stderr, "%s: %s: %d ranks, %llu records in %s\n", cmd.tool, input.c_str(), s.ranks,
                 static_cast<unsigned long long>(s.records), out.c_str());
    for (const auto& [name, n] : s.skipped)
      std::fprintf(stderr, "%s: skipped %llu %s %s (--skip-unknown)\n", cmd.tool,
                   static_cast<unsigned long long>(n), name.c_str(), cmd.unit);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", cmd.tool, e.what());
    return 1;
  }
  return 0;
}

}  // namespace simmpi::replay
