// SPDX-License-Identifier: Apache-2.0
// The effective configuration of a run: registry defaults, then a platform file, then --set
// overrides, each value parsed and range-checked when it is set so an error can name its origin
// (file and line, or the command-line option).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/config/options.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {

class Config {
 public:
  Config();  // every key at its registry default: the embedded default platform

  // Reads a TOML platform file. Throws ConfigError naming the file, line, key and the fix.
  void load_file(const std::string& path);
  // Same for TOML text; `source_name` stands for the file name in messages.
  void load_toml(std::string_view text, const std::string& source_name);
  // "key=value" as given to --set.
  void set(std::string_view assignment);
  void set_value(std::string_view key, std::string_view value, const std::string& origin);

  std::int64_t integer(std::string_view key) const;
  double real(std::string_view key) const;
  bool flag(std::string_view key) const;
  const std::string& text(std::string_view key) const;  // Text and Choice keys
  // A Path key's value, relative paths taken from runtime.directory when that is set (tools
  // that run a program in a scratch directory point it at the user's); empty stays empty.
  std::string path(std::string_view key) const;
  // `p` taken from runtime.directory when it is relative (for paths with built-in defaults).
  std::string resolve_path(const std::string& p) const;
  std::vector<std::int64_t> integer_list(std::string_view key) const;
  SimTime time(std::string_view key) const;
  double bandwidth_Bps(std::string_view key) const;
  std::uint64_t size_bytes(std::string_view key) const;
  double frequency_hz(std::string_view key) const;
  double flop_rate(std::string_view key) const;

  // Any key's value as written (normalized for printing: "25GB/s", "auto", "1200").
  const std::string& value_text(std::string_view key) const;
  // Where the value came from: "default", "file.toml:12" or "--set".
  const std::string& origin(std::string_view key) const;
  // The effective configuration as TOML, each value commented with its origin; it can be
  // saved and passed back with --platform. Sections of choices not chosen (network.fat_tree
  // under a torus) are left out: they take no effect, and loading them back would warn.
  std::string to_toml() const;
  // Settings that take no effect: keys given in a file or on the command line whose section is
  // named after a choice that is not the one chosen ("network.fat_tree.down" under
  // network.topology = torus), each as a sentence naming the key, its origin and the choice.
  std::vector<std::string> unused_settings() const;

 private:
  // The choice key that `key`'s section is named after when that choice is not the chosen
  // one ("network.topology" for "network.fat_tree.down" under a torus), else nullptr.
  const std::string* unchosen_section_choice(const std::string& key) const;
  struct Value {
    const OptionSpec* spec;
    std::string text;   // as written, normalized for printing
    double number = 0;  // parsed value in base units for numeric kinds
    std::vector<std::int64_t> list;
    std::string origin;
  };
  const Value& get(std::string_view key, Kind expected) const;
  std::map<std::string, Value, std::less<>> values_;
};

}  // namespace simmpi::runtime
