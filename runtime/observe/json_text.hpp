// SPDX-License-Identifier: Apache-2.0
// A string as a JSON string literal, for the reports' JSON files.
#pragma once

#include <string>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {

inline std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += strprintf("\\u%04x", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace simmpi::runtime
