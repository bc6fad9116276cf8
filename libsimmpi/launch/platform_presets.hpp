// SPDX-License-Identifier: Apache-2.0
// --platform takes a file or the name of a platform preset shipped with simmpi (frontera,
// pupmaya...): the .toml files of share/simmpi/platforms next to libsimmpi's lib directory, and
// of the directories in SIMMPI_PLATFORM_PATH (colon-separated), which come first. simmpi's
// Python tools follow the same rules (tools/python/simmpi_tool_util.py).
#pragma once

#include <string>
#include <vector>

namespace simmpi::mpi {

// The platform file `value` names: `value` itself when it is a file or a path (it has a '/'),
// else the preset of that name ("frontera" or "frontera.toml"). Throws ConfigError listing the
// presets when a bare name is neither a file nor a preset.
std::string find_platform_file(const std::string& value);

// Directories searched for presets, in order.
std::vector<std::string> preset_directories();

}  // namespace simmpi::mpi
