// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/text_output.hpp"

#include <gtest/gtest.h>
#include <isa-l/igzip_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
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
// kind on its lane and by its kind, in pieces: the kind's text (the same as the reference's),
// the lane's (the same against the lane's own last event, else compared), numbers that mostly
// differ from the reference's (times, ids) and some that do not, compared text; now and then a
// text with no unit, one longer than a copy, units of more pieces than a mark keeps, and bytes
// beyond ASCII. Several MiB: blocks, the window and long copies are crossed.
void write_events(const std::string& path, int events) {
  TextOutput out;
  std::string error;
  ASSERT_TRUE(out.open(path, &error)) << error;
  out.text("{\"traceEvents\":[\n");
  TextOutput::Mark lane_kind[7][3], kind[3];
  std::int64_t t = 0;
  const std::string long_text(700, 'x'), longer_text(5000, 'y');
  const TextOutput::ShortText kind_text[2] = {
      TextOutput::ShortText("{\"ph\":\"s\",\"name\":\"message\""),
      TextOutput::ShortText("{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"a message whose kind's text is "
                            "longer than a short text's room\"")};
  for (int i = 0; i < events; ++i) {
    const int lane = (i * 5) % 7, k = i % 3;
    if (i % 1000 == 999) out.text("{\"ph\":\"M\",\"name\":\"caf\xc3\xa9\"},\n");  // no unit
    const bool near = out.begin(lane_kind[lane][k], kind[k]);
    if (k == 0)
      out.same("{\"ph\":\"X\",\"name\":\"MPI_Send\"");
    else
      out.same(kind_text[k - 1]);  // copied whole, or (longer than its room) as a string
    const std::string lane_text = ",\"pid\":" + std::to_string(lane) + ",\"ts\":";
    if (i % 2)
      out.piece(TextOutput::ShortText(lane_text), near);
    else
      out.piece(lane_text, near);
    t += 1 + (i * 7919) % 100003;
    out.micros(t);
    out.same(",\"dur\":");
    out.micros(k == 2 ? t % 977 : 300000);
    out.text(",\"id\":");
    out.integer(-i);
    if (i % 4099 == 0) {  // a long text, and pieces beyond those marked
      out.text(long_text);
      out.integer(i);
    }
    if (i % 4099 == 1) out.text(longer_text);  // a piece longer than a mark keeps
    out.text(k == 1 ? "},\n" : "}\n,");
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
  auto integer = [&](std::int64_t v) { return std::string(b, TextOutput::format_integer(b, v)); };
  // Every digit count, around each power of ten, the extremes.
  std::vector<std::int64_t> values = {INT64_MIN, INT64_MAX, 0};
  for (std::int64_t p = 1; p <= INT64_MAX / 10; p *= 10)
    for (std::int64_t d : {-1, 0, 1}) values.insert(values.end(), {p + d, -(p + d), 7 * p + d});
  for (std::int64_t v = 0; v < 2000000; v += 997) values.push_back(v);
  for (std::int64_t v : values) {
    EXPECT_EQ(integer(v), std::to_string(v));
    std::string expected = std::to_string(v / 1000000);
    if (v < 0 && v > -1000000) expected = "-0";
    if (const std::int64_t f = v % 1000000) {
      char fraction[8];
      std::snprintf(fraction, sizeof fraction, "%06lld", static_cast<long long>(f < 0 ? -f : f));
      std::string digits(fraction);
      expected += "." + digits.substr(0, digits.find_last_not_of('0') + 1);
    }
    EXPECT_EQ(micros(v), expected) << v;
  }
}

// integer() and micros() make a number from the last one's text when it is a little more;
// every step, carry and fall is written as printf would.
TEST(TextOutput, NumbersAfterOthersAreWhatTheyAre) {
  const std::string path = temp_path("numbers.txt");
  TextOutput out;
  std::string error;
  ASSERT_TRUE(out.open(path, &error)) << error;
  std::string expected;
  auto micros_text = [](std::int64_t ps) {
    char b[64];
    std::snprintf(b, sizeof b, "%lld.%06lld", static_cast<long long>(ps / 1000000),
                  static_cast<long long>(ps % 1000000));
    std::string s(b);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  };
  std::int64_t v = 0, ps = 0;
  for (int i = 0; i < 200000; ++i) {
    // Steps of 0 to 12 (a carry out of the last digit or not), now and then a fall or a jump.
    v += i % 97 == 0 ? -(v / 3) : i % 89 == 0 ? 99999 : (i * 7) % 13;
    ps += i % 101 == 0 ? -(ps / 2) : (i * 7919) % 3000001;
    out.integer(v);
    out.text(" ");
    out.micros(ps);
    out.text("\n");
    expected += std::to_string(v) + " " + micros_text(ps) + "\n";
  }
  ASSERT_TRUE(out.close(&error)) << error;
  const std::string text = read_file(path);
  std::remove(path.c_str());
  if (text == expected) return;
  const std::size_t at = static_cast<std::size_t>(
      std::mismatch(text.begin(), text.end(), expected.begin(), expected.end()).first -
      text.begin());
  const std::size_t line = expected.rfind('\n', at) + 1;  // npos + 1: the first line
  ADD_FAILURE() << "from byte " << at << ": \"" << text.substr(line, 40) << "\", expected \""
                << expected.substr(line, 40) << "\"";
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
