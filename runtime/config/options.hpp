// SPDX-License-Identifier: Apache-2.0
// The registry of every configuration key: its kind, default, range and help text. Code reads
// typed values through Config and never restates a default; --help-config and docs/config.md
// are printed from this table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace simmpi::runtime {

enum class Kind {
  Integer,
  Real,
  Bool,
  Text,
  Path,  // a file or directory; read with Config::path, relative to runtime.directory
  Choice,
  IntegerList,  // "[44, 18]"
  Time,
  Bandwidth,
  Size,
  Frequency,
  FlopRate,
};

struct ChoiceDef {
  const char* name;
  const char* help;
};

struct OptionSpec {
  const char* key;  // "table.snake_case", the same in a file and on the command line
  Kind kind;
  const char* default_text;
  const char* help;
  std::vector<ChoiceDef> choices = {};  // Kind::Choice only
  double min = 0;                       // inclusive lower bound of numbers and quantities
  double max = 1e300;                   // inclusive upper bound
};

const std::vector<OptionSpec>& option_registry();
// nullptr when `key` is not registered.
const OptionSpec* find_option(std::string_view key);
// The registered key nearest to `key` by edit distance, for "did you mean" messages.
std::string closest_option(std::string_view key);
const char* kind_name(Kind k);

}  // namespace simmpi::runtime
