// SPDX-License-Identifier: Apache-2.0
#include "runtime/config/units.hpp"

#include <gtest/gtest.h>

namespace simmpi::runtime {
namespace {
double parse(const char* s, Quantity q) {
  std::string why;
  auto v = parse_quantity(s, q, &why);
  EXPECT_TRUE(v.has_value()) << s << ": " << why;
  return v.value_or(-1);
}
std::string error(const char* s, Quantity q) {
  std::string why;
  EXPECT_FALSE(parse_quantity(s, q, &why).has_value()) << s;
  return why;
}
}  // namespace

TEST(Units, BandwidthInBitsAndBytes) {
  EXPECT_DOUBLE_EQ(parse("100Gbps", Quantity::Bandwidth), 12.5e9);
  EXPECT_DOUBLE_EQ(parse("200 Gb/s", Quantity::Bandwidth), 25e9);
  EXPECT_DOUBLE_EQ(parse("12.5GB/s", Quantity::Bandwidth), 12.5e9);
  EXPECT_DOUBLE_EQ(parse("1GiB/s", Quantity::Bandwidth), 1073741824.0);
}

TEST(Units, TimeSizeFrequency) {
  EXPECT_DOUBLE_EQ(parse("90ns", Quantity::Time), 90e-9);
  EXPECT_DOUBLE_EQ(parse("1.5us", Quantity::Time), 1.5e-6);
  EXPECT_DOUBLE_EQ(parse("64KiB", Quantity::Size), 65536);
  EXPECT_DOUBLE_EQ(parse("192GiB", Quantity::Size), 192.0 * 1073741824.0);
  EXPECT_DOUBLE_EQ(parse("2.7GHz", Quantity::Frequency), 2.7e9);
  EXPECT_DOUBLE_EQ(parse("3.2Tflops", Quantity::FlopRate), 3.2e12);
}

TEST(Units, ErrorsNameTheProblemAndGiveAnExample) {
  EXPECT_NE(error("100", Quantity::Bandwidth).find("no unit"), std::string::npos);
  EXPECT_NE(error("100", Quantity::Bandwidth).find("100Gbps"), std::string::npos);
  EXPECT_NE(error("10 Gbit", Quantity::Bandwidth).find("unknown unit \"Gbit\""), std::string::npos);
  EXPECT_NE(error("fast", Quantity::Time).find("not a number"), std::string::npos);
  EXPECT_NE(error("-5ns", Quantity::Time).find("non-negative"), std::string::npos);
}

TEST(Units, FormatRoundTrips) {
  EXPECT_EQ(format_quantity(12.5e9, Quantity::Bandwidth), "100Gbps");
  EXPECT_EQ(format_quantity(90e-9, Quantity::Time), "90ns");
  EXPECT_EQ(format_quantity(262144, Quantity::Size), "256KiB");
  EXPECT_EQ(format_quantity(2.7e9, Quantity::Frequency), "2.7GHz");
}

}  // namespace simmpi::runtime
