// SPDX-License-Identifier: Apache-2.0
// Finding platform presets by name.
#include "libsimmpi/launch/platform_presets.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "libsimmpi/launch/install_prefix.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace fs = std::filesystem;

std::vector<std::string> preset_directories() {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("SIMMPI_PLATFORM_PATH")) {
    std::stringstream ss(path);
    std::string d;
    while (std::getline(ss, d, ':'))
      if (!d.empty()) dirs.push_back(d);
  }
  if (const std::string prefix = install_prefix(); !prefix.empty())
    dirs.push_back((fs::path(prefix) / "share/simmpi/platforms").string());
  return dirs;
}

std::string find_platform_file(const std::string& value) {
  std::error_code ec;
  // A path is a file (Config::load_file says why it cannot be read); a bare name may be a preset.
  if (fs::is_regular_file(value, ec) || value.find('/') != std::string::npos) return value;
  std::vector<std::string> dirs = preset_directories();
  std::string name = value;
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0)
    name.resize(name.size() - 5);
  for (const std::string& d : dirs)
    if (fs::is_regular_file(fs::path(d) / (name + ".toml"), ec))
      return (fs::path(d) / (name + ".toml")).string();
  std::set<std::string> names;
  for (const std::string& d : dirs)
    for (const auto& e : fs::directory_iterator(d, ec))
      if (e.path().extension() == ".toml") names.insert(e.path().stem().string());
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw ConfigError("--platform " + value +
                    ": there is no such file and no preset of that name; presets: " +
                    (list.empty() ? "none installed" : list));
}

}  // namespace simmpi::mpi
