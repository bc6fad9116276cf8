// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/text_output.hpp"

#include <gtest/gtest.h>
#include <isa-l/igzip_lib.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace simmpi::runtime {
namespace {

std::string temp_path(const char* name) {
  return "/tmp/simmpi_text_output_test_" + std::to_string(getpid()) + "_" + name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// gunzip with ISA-L's inflate, which checks the header, the CRC-32 and the length; "" when the
// file is not one whole gzip member.
std::string gunzip(const std::string& zipped, std::size_t size) {
  std::string text(size + 1, '\0');
  inflate_state s;
  isal_inflate_init(&s);
  s.crc_flag = ISAL_GZIP;
  s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(zipped.data()));
  s.avail_in = static_cast<std::uint32_t>(zipped.size());
  s.next_out = reinterpret_cast<std::uint8_t*>(text.data());
  s.avail_out = static_cast<std::uint32_t>(text.size());
  if (isal_inflate(&s) != ISAL_DECOMP_OK || s.block_state != ISAL_BLOCK_FINISH) return "";
  text.resize(s.total_out);
  return text;
}

// Writes what a timeline writes: events of a few kinds on a few lanes, each a unit marked by its
// kind on its lane and by its kind, with numbers that mostly differ from the lane's last event
// of the kind (times) and some that do not; now and then a text with no unit, one longer than
// a copy, and bytes beyond ASCII. Several MiB: blocks, the window and long copies are crossed.
void write_events(const std::string& path, int events) {
  TextOutput out;
  std::string error;
  ASSERT_TRUE(out.open(path, &error)) << error;
  out.text("{\"traceEvents\":[\n");
  TextOutput::Mark lane_kind[7][3], kind[3];
  std::int64_t t = 0;
  const std::string long_text(700, 'x');
  for (int i = 0; i < events; ++i) {
    const int lane = (i * 5) % 7, k = i % 3;
    if (i % 1000 == 999) out.text("{\"ph\":\"M\",\"name\":\"caf\xc3\xa9\"},\n");  // no unit
    out.begin(lane_kind[lane][k], kind[k]);
    out.text(k == 0 ? "{\"ph\":\"X\",\"name\":\"MPI_Send\",\"pid\":"
                    : "{\"ph\":\"s\",\"name\":\"message\",\"pid\":");
    out.integer(lane);
    out.text(",\"ts\":");
    t += 1 + (i * 7919) % 100003;
    out.micros(t);
    out.text(",\"dur\":");
    out.micros(k == 2 ? t % 977 : 300000);
    if (i % 4099 == 0) out.text(long_text);
    out.text(",\"id\":");
    out.integer(-i);
    out.text("},\n");
    out.end();
  }
  out.text("{}]}\n");
  ASSERT_TRUE(out.close(&error)) << error;
}

TEST(TextOutput, CompressedIsTheTextAndSmall) {
  const std::string plain = temp_path("a.json"), zipped = temp_path("a.json.gz");
  write_events(plain, 60000);
  write_events(zipped, 60000);
  const std::string text = read_file(plain), gz = read_file(zipped);
  ASSERT_GT(text.size(), std::size_t{4} << 20);
  EXPECT_EQ(gunzip(gz, text.size()), text);
  // Most of each event is a copy: what differs is its times and id.
  EXPECT_LT(gz.size(), text.size() / 4) << gz.size() << " bytes compressed of " << text.size();
  // The same text and marks give the same bytes.
  write_events(zipped, 60000);
  EXPECT_EQ(read_file(zipped), gz);
  std::remove(plain.c_str());
  std::remove(zipped.c_str());
}

TEST(TextOutput, NumbersKeepEveryPicosecondAndNoTrailingZero) {
  char b[TextOutput::kMaxNumber];
  auto micros = [&](std::int64_t ps) { return std::string(b, TextOutput::format_micros(b, ps)); };
  EXPECT_EQ(micros(12000345), "12.000345");
  EXPECT_EQ(micros(12500000), "12.5");
  EXPECT_EQ(micros(12000000), "12");
  EXPECT_EQ(micros(0), "0");
  EXPECT_EQ(micros(1), "0.000001");
  EXPECT_EQ(micros(-2500000), "-2.5");
  EXPECT_EQ(std::string(b, TextOutput::format_integer(b, -9012345678)), "-9012345678");
}

TEST(TextOutput, TextWithoutUnitsIsLiteral) {
  const std::string zipped = temp_path("b.json.gz");
  TextOutput out;
  std::string error;
  ASSERT_TRUE(out.open(zipped, &error)) << error;
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    text += "line " + std::to_string(i) + " \xff\n";
    out.text("line ");
    out.integer(i);
    out.text(" \xff\n");
  }
  ASSERT_TRUE(out.close(&error)) << error;
  EXPECT_EQ(gunzip(read_file(zipped), text.size()), text);
  std::remove(zipped.c_str());
}

}  // namespace
}  // namespace simmpi::runtime
