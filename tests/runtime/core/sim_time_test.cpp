// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/sim_time.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace simmpi::runtime {

TEST(SimTime, ConversionsRoundToThePicosecond) {
  EXPECT_EQ(SimTime::from_seconds(1e-9).ps(), 1000);
  EXPECT_EQ(SimTime::from_seconds(1.5e-12).ps(), 2);  // llround: halves away from zero
  EXPECT_EQ(SimTime::from_ns(90).ps(), 90000);
  EXPECT_DOUBLE_EQ(SimTime::from_ps(2500).seconds(), 2.5e-9);
}

// from_seconds rounds without calling llround; it must agree with it on every value: halves
// and their neighbours, negative values, values near and beyond 2^62 ps, infinities.
TEST(SimTime, FromSecondsRoundsAsLlround) {
  std::vector<double> ps = {0.0,
                            -0.0,
                            0.5,
                            -0.5,
                            1.5,
                            -1.5,
                            2.5,
                            0.49999999999999994,
                            -0.49999999999999994,
                            4503599627370495.5,
                            4503599627370497.0,
                            0x1p62,
                            -0x1p62,
                            0x1p61 + 0.5,
                            1e300};
  for (double x : {0.5, 1.5, 1e6 + 0.5, 123456789.5, 1e15 + 0.5})
    for (double y : {x, -x})
      for (int k = -3; k <= 3; ++k) {
        double v = y;
        for (int i = 0; i < std::abs(k); ++i) v = std::nextafter(v, k < 0 ? -1e300 : 1e300);
        ps.push_back(v);
      }
  std::uint64_t state = 88172645463325252ull;  // xorshift: seconds over many magnitudes
  for (int i = 0; i < 100000; ++i) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    ps.push_back(static_cast<double>(state >> 11) * 0x1p-53 * std::pow(10.0, i % 19 - 3));
  }
  for (double v : ps)
    EXPECT_EQ(SimTime::from_seconds(v * 1e-12).ps(), std::llround(v * 1e-12 * 1e12)) << v;
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(SimTime::from_seconds(inf).ps(), std::llround(inf));
}

TEST(SimTime, TransferTimeOfOneKilobyteAt100Gbps) {
  // 1000 bytes at 12.5e9 bytes/s = 80 ns exactly.
  EXPECT_EQ(transfer_time(1000, 12.5e9).ps(), 80000);
}

TEST(SimTime, FormatsWithTwelveDecimals) {
  EXPECT_EQ(SimTime::from_ps(1234567890123LL).to_string(), "1.234567890123 s");
  EXPECT_EQ(SimTime::from_ps(5).to_string(), "0.000000000005 s");
}

}  // namespace simmpi::runtime
