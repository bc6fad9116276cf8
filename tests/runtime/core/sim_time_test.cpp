// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/sim_time.hpp"

#include <gtest/gtest.h>

namespace simmpi::runtime {

TEST(SimTime, ConversionsRoundToThePicosecond) {
  EXPECT_EQ(SimTime::from_seconds(1e-9).ps(), 1000);
  EXPECT_EQ(SimTime::from_seconds(1.5e-12).ps(), 2);  // llround: halves away from zero
  EXPECT_EQ(SimTime::from_ns(90).ps(), 90000);
  EXPECT_DOUBLE_EQ(SimTime::from_ps(2500).seconds(), 2.5e-9);
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
