// SPDX-License-Identifier: Apache-2.0
// runtime.privatize_libs: which shared libraries are the program's (see library_rule.hpp).
#include "runtime/privatize/library_rule.hpp"

#include <stdlib.h>

#include <array>
#include <memory>
#include <string_view>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

// Libraries whose state simmpi itself uses while no rank runs, or that hold the process's
// threads, heap and I/O: privatizing them would break the simulator, so they never are.
constexpr std::array<std::string_view, 17> kNever = {
    "libc",    "ld-linux",   "libm",       "libpthread",       "libdl",
    "librt",   "libstdc++",  "libgcc_s",   "libgfortran",      "libquadmath",
    "libgomp", "libsimmpi",  "libsimblas", "libboost_context", "libtomlplusplus",
    "libffi",  "libopenblas"};

constexpr std::array<std::string_view, 4> kSystemDirs = {"/lib/", "/lib64/", "/usr/lib/",
                                                         "/usr/lib64/"};

std::string_view base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// "libfoo" matches libfoo.so and libfoo.so.1; "libfoo.so.1" only itself; a path only that file.
bool matches(std::string_view name, std::string_view path) {
  if (name.find('/') != std::string_view::npos) return name == path;
  std::string_view file = base_name(path);
  if (file == name) return true;
  return file.size() > name.size() && file.substr(0, name.size()) == name &&
         file[name.size()] == '.';
}

bool matches_any(const std::vector<std::string>& names, std::string_view path) {
  for (const std::string& n : names)
    if (matches(n, path)) return true;
  return false;
}

bool is_never(std::string_view path) {
  std::string_view file = base_name(path);
  for (std::string_view n : kNever)
    if (file.substr(0, n.size()) == n &&
        (file.size() == n.size() || file[n.size()] == '.' || file[n.size()] == '-' ||
         n == "libsimmpi" || n == "libsimblas"))
      return true;
  return false;
}

bool in_system_dir(const std::string& path) {
  std::unique_ptr<char, decltype(&free)> real(realpath(path.c_str(), nullptr), &free);
  std::string_view p = real ? std::string_view(real.get()) : std::string_view(path);
  for (std::string_view d : kSystemDirs)
    if (p.substr(0, d.size()) == d) return true;
  return false;
}

}  // namespace

LibraryRule::LibraryRule(const std::string& spec) {
  std::size_t at = 0;
  while (at <= spec.size()) {
    std::size_t comma = spec.find(',', at);
    if (comma == std::string::npos) comma = spec.size();
    std::string item = spec.substr(at, comma - at);
    at = comma + 1;
    const auto first = item.find_first_not_of(" \t");
    if (first == std::string::npos) {
      if (spec.find_first_not_of(" \t") == std::string::npos) break;  // an empty key
      throw ConfigError("runtime.privatize_libs=\"" + spec +
                        "\": an empty library name; e.g. \"libfoo,-libbar.so.2\"");
    }
    item = item.substr(first, item.find_last_not_of(" \t") - first + 1);
    bool exclude = item[0] == '-';
    if (exclude) item.erase(0, 1);
    if (item.empty() || item.find_first_of(" \t,") != std::string::npos)
      throw ConfigError("runtime.privatize_libs=\"" + spec + "\": \"" + item +
                        "\" is not a library name; e.g. \"libfoo,-libbar.so.2\"");
    (exclude ? exclude_ : include_).push_back(item);
  }
}

LibraryRule::Verdict LibraryRule::classify(const std::string& path, std::string& why) const {
  // The executable (no name) and the kernel's vdso (no path) are not libraries to consider.
  if (path.empty() || path.find('/') == std::string::npos) return Verdict::Shared;
  if (is_never(path)) {
    if (!matches_any(include_, path)) return Verdict::Shared;
    why =
        "runtime.privatize_libs names it, but simmpi itself uses its state between the "
        "ranks' calls (the C and C++ runtimes, the loader and simmpi's own libraries never "
        "are privatized)";
    return Verdict::Refused;
  }
  if (matches_any(exclude_, path)) return Verdict::Excluded;
  if (matches_any(include_, path)) return Verdict::Private;
  return in_system_dir(path) ? Verdict::Shared : Verdict::Private;
}

}  // namespace simmpi::runtime
