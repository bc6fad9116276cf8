// SPDX-License-Identifier: Apache-2.0
// Quantities written as people write them: "100Gbps", "12.5GB/s", "90ns", "2.7GHz", "192GiB".
// One parser for every key and for the command line, so a unit means the same thing everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {

enum class Quantity { Time, Bandwidth, Size, Frequency, FlopRate };

// Parses "<number><unit>" (spaces allowed between) into the quantity's base unit:
// Time -> seconds, Bandwidth -> bytes/s, Size -> bytes, Frequency -> Hz, FlopRate -> flop/s.
// On failure returns nullopt and sets `why` to a sentence naming the problem and an example.
std::optional<double> parse_quantity(std::string_view text, Quantity q, std::string* why);

// Accepted unit suffixes, for help texts: "ps, ns, us, ms, s".
const char* unit_list(Quantity q);
const char* quantity_name(Quantity q);

// Formats a base-unit value back with a readable unit ("100Gbps", "90ns", "256KiB"), so that
// --print-config output can be fed back as a platform file.
std::string format_quantity(double value, Quantity q);

}  // namespace simmpi::runtime
