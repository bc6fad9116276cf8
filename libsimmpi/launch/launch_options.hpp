// SPDX-License-Identifier: Apache-2.0
// The command line of a simulated program: `./app.sim -n N [--platform F] [--set k=v]... [--]
// [app args]`, or the same options passed by simmpirun in SIMMPI_LAUNCH_OPTIONS with the
// program's argv left untouched.
#pragma once

#include <string>
#include <vector>

namespace simmpi::mpi {

struct LaunchOptions {
  int ranks = 1;
  std::string platform;           // empty: the embedded default platform
  std::vector<std::string> sets;  // "key=value", in order
  bool help = false;
  bool help_config = false;           // --help-config
  bool help_config_markdown = false;  // --help-config=markdown (docs/config.md)
  bool print_config = false;
  bool print_machine = false;   // --print-machine: the machine's size, for tools
  bool quiet = false;           // no summary at the end
  std::vector<char*> app_argv;  // argv[0] and the application's own arguments
};

// Parses argv. Throws ConfigError with a sentence naming the offending option. `env_options`
// is the content of SIMMPI_LAUNCH_OPTIONS (or nullptr): options separated by \x1f, in which case
// every element of argv after argv[0] belongs to the application.
LaunchOptions parse_launch_options(int argc, char** argv, const char* env_options);

// The --help text.
std::string launch_help(const char* program);

}  // namespace simmpi::mpi
