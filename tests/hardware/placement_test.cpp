// SPDX-License-Identifier: Apache-2.0
#include "hardware/placement.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

runtime::Config with(const char* policy, int per_node) {
  runtime::Config c;
  c.set(std::string("node.placement=") + policy);
  c.set("node.ranks_per_node=" + std::to_string(per_node));
  return c;
}

// Writes `text` to a fresh file and sets it as the placement file.
std::string placement_file(runtime::Config& c, const std::string& text) {
  std::string path = ::testing::TempDir() + "placement_" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
  std::ofstream(path) << text;
  c.set("node.placement=file");
  c.set("node.placement_file=" + path);
  return path;
}

std::string error_of(int processes, int nodes, const runtime::Config& c) {
  try {
    place_processes(processes, nodes, c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(Placement, BlockFillsEachNodeInTurn) {
  std::vector<int> n = place_processes(7, 10, with("block", 3));
  EXPECT_EQ(n, (std::vector<int>{0, 0, 0, 1, 1, 1, 2}));
}

TEST(Placement, RoundRobinCyclesOverTheNodesTheRanksNeed) {
  std::vector<int> n = place_processes(7, 10, with("round_robin", 3));
  EXPECT_EQ(n, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(Placement, RandomIsSeededAndRespectsRanksPerNode) {
  runtime::Config c = with("random", 2);
  std::vector<int> a = place_processes(50, 40, c), b = place_processes(50, 40, c);
  EXPECT_EQ(a, b) << "same seed, same placement";
  std::map<int, int> per_node;
  for (int node : a) {
    ASSERT_GE(node, 0);
    ASSERT_LT(node, 40);
    ASSERT_LE(++per_node[node], 2) << "node " << node;
  }
  EXPECT_GT(per_node.rbegin()->first, 24) << "spread over the machine, not just 25 nodes";
  c.set("runtime.seed=2");
  EXPECT_NE(place_processes(50, 40, c), a) << "another seed, another placement";
}

TEST(Placement, FileListsANodePerGroupOfRanks) {
  runtime::Config c = with("block", 2);
  placement_file(c, "# MARS-style mapping\n5\n2   # second group\n\n7\n");
  EXPECT_EQ(place_processes(5, 8, c), (std::vector<int>{5, 5, 2, 2, 7}));
}

TEST(Placement, FileNamingAMissingNodeIsAConfigError) {
  runtime::Config c = with("block", 1);
  std::string path = placement_file(c, "0\n1\n9\n");
  std::string e = error_of(3, 8, c);
  EXPECT_NE(e.find(path + ":3: node 9 does not exist"), std::string::npos) << e;
  EXPECT_NE(e.find("node.placement_file"), std::string::npos) << e;
}

TEST(Placement, FileRepeatingANodeIsAConfigError) {
  runtime::Config c = with("block", 1);
  std::string path = placement_file(c, "3\n1\n3\n");
  std::string e = error_of(3, 8, c);
  EXPECT_NE(e.find(path + ":3: node 3 is listed again (first on line 1)"), std::string::npos) << e;
}

TEST(Placement, FileTooShortOrMissingIsAConfigError) {
  runtime::Config c = with("block", 2);
  placement_file(c, "0\n1\n");
  EXPECT_NE(error_of(5, 8, c).find("lists 2 nodes, but 5 ranks at node.ranks_per_node = 2 need 3"),
            std::string::npos);
  c.set("node.placement_file=/nonexistent/placement.txt");
  EXPECT_NE(error_of(1, 8, c).find("cannot be read"), std::string::npos);
}

}  // namespace simmpi::hardware
