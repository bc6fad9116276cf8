// SPDX-License-Identifier: Apache-2.0
#include "runtime/config/config.hpp"

#include <gtest/gtest.h>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {
std::string error_of(auto&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError thrown";
  return "";
}
}  // namespace

TEST(Config, DefaultsComeFromTheRegistry) {
  Config c;
  EXPECT_DOUBLE_EQ(c.bandwidth_Bps("network.link_bw"), 12.5e9);
  EXPECT_EQ(c.size_bytes("mpi.eager_threshold"), 65536u);
  EXPECT_EQ(c.origin("network.link_bw"), "default");
}

TEST(Config, FileThenSetOverrides) {
  Config c;
  c.load_toml("[network]\nlink_bw = \"200Gbps\"\n\n[mpi]\nsend_overhead = \"1us\"\n", "p.toml");
  EXPECT_DOUBLE_EQ(c.bandwidth_Bps("network.link_bw"), 25e9);
  EXPECT_EQ(c.origin("network.link_bw"), "p.toml:2");
  EXPECT_EQ(c.time("mpi.send_overhead").ps(), 1000000);
  c.set("network.link_bw=400Gbps");
  EXPECT_DOUBLE_EQ(c.bandwidth_Bps("network.link_bw"), 50e9);
  EXPECT_EQ(c.origin("network.link_bw"), "--set");
}

TEST(Config, UnknownKeySuggestsTheClosest) {
  Config c;
  std::string e =
      error_of([&] { c.load_toml("[network]\nlink_bandwidth = \"1Gbps\"\n", "p.toml"); });
  EXPECT_NE(e.find("p.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown key \"network.link_bandwidth\""), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean \"network.link_bw\""), std::string::npos) << e;
}

TEST(Config, BadValueNamesFileLineKeyAndFix) {
  Config c;
  std::string e = error_of([&] { c.load_toml("[network]\n\nlink_bw = \"100\"\n", "p.toml"); });
  EXPECT_NE(e.find("p.toml:3: network.link_bw = \"100\": no unit"), std::string::npos) << e;
  e = error_of([&] { c.set("node.ranks_per_node=0"); });
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
  e = error_of([&] { c.set("network.topology=hypercube"); });
  EXPECT_NE(e.find("not one of: crossbar"), std::string::npos) << e;
  e = error_of([&] { c.set("network.link_bw"); });
  EXPECT_NE(e.find("expected key=value"), std::string::npos) << e;
}

TEST(Config, QuotedNumberInAFileIsATypeError) {
  Config c;
  std::string e = error_of([&] { c.load_toml("[node]\nranks_per_node = \"4\"\n", "p.toml"); });
  EXPECT_NE(e.find("p.toml:2: node.ranks_per_node = \"4\": expected integer, written without "
                   "quotes"),
            std::string::npos)
      << e;
  e = error_of([&] { c.load_toml("[network.fat_tree]\ndown = \"[4, 4]\"\n", "p.toml"); });
  EXPECT_NE(e.find("expected a list of integers, e.g. [44, 18]"), std::string::npos) << e;
  c.set("node.ranks_per_node=4");  // on the command line everything is text
  EXPECT_EQ(c.integer("node.ranks_per_node"), 4);
}

TEST(Config, SectionsOfAnotherChoiceAreNamedAsUnused) {
  Config c;
  c.load_toml("[network]\ntopology = \"torus\"\n[network.fat_tree]\ndown = [4, 4]\n", "p.toml");
  std::vector<std::string> unused = c.unused_settings();
  ASSERT_EQ(unused.size(), 1u);
  EXPECT_EQ(unused[0],
            "network.fat_tree.down (p.toml:4) has no effect: it applies when network.topology = "
            "fat_tree, and network.topology = torus (p.toml:2)");
  c.set("network.topology=fat_tree");  // the section is used now
  EXPECT_TRUE(c.unused_settings().empty());
}

TEST(Config, PathsAreTakenFromTheDirectory) {
  Config c;
  c.set("report.profile_file=out/p.json");
  EXPECT_EQ(c.path("report.profile_file"), "out/p.json");
  c.set("runtime.directory=/home/me");
  EXPECT_EQ(c.path("report.profile_file"), "/home/me/out/p.json");
  EXPECT_EQ(c.path("node.placement_file"), "");  // empty stays empty
  c.set("report.profile_file=/abs/p.json");
  EXPECT_EQ(c.path("report.profile_file"), "/abs/p.json");
  EXPECT_EQ(c.resolve_path("simmpi_timeline"), "/home/me/simmpi_timeline");
}

TEST(Config, MalformedTomlGivesTheLine) {
  Config c;
  std::string e = error_of([&] { c.load_toml("[network]\nlink_bw = \"100Gbps\n", "broken.toml"); });
  EXPECT_NE(e.find("broken.toml:2: malformed TOML"), std::string::npos) << e;
}

TEST(Config, MissingFileIsNamed) {
  Config c;
  std::string e = error_of([&] { c.load_file("/nonexistent/platform.toml"); });
  EXPECT_NE(e.find("\"/nonexistent/platform.toml\" cannot be read"), std::string::npos) << e;
}

TEST(Config, PrintedConfigLoadsBackIdentically) {
  Config a;
  a.set("network.link_bw=200Gbps");
  a.set("node.ranks_per_node=4");
  Config b;
  b.load_toml(a.to_toml(), "printed.toml");
  EXPECT_DOUBLE_EQ(b.bandwidth_Bps("network.link_bw"), 25e9);
  EXPECT_EQ(b.integer("node.ranks_per_node"), 4);
  EXPECT_EQ(b.to_toml().find("--set"), std::string::npos);
  // Only the chosen topology's section is printed, so loading it back warns of nothing.
  EXPECT_TRUE(b.unused_settings().empty());
  a.set("network.topology=torus");
  EXPECT_NE(a.to_toml().find("[network.torus]"), std::string::npos);
  EXPECT_EQ(a.to_toml().find("[network.fat_tree]"), std::string::npos);
}

}  // namespace simmpi::runtime
