// SPDX-License-Identifier: Apache-2.0
// The configuration reference, printed from the option registry: --help-config shows it, and
// docs/config.md is the same text in Markdown (a test keeps the two in step).
#pragma once

#include <string>

namespace simmpi::runtime {

std::string config_help(bool markdown);

}  // namespace simmpi::runtime
