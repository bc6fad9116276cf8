// SPDX-License-Identifier: Apache-2.0
// hardware/compute: the node description and its shares, profile files (lookup, round trip and
// every rejected input), the GPU roofline, link and device timelines, and bad peaks.
#include "hardware/compute/compute_model.hpp"

#include <gtest/gtest.h>

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no ConfigError";
}

TEST(NodeSpec, DefaultsAndShares) {
  runtime::Config c;
  NodeSpec n = NodeSpec::from_config(c);
  EXPECT_EQ(n.cores(), 56);
  EXPECT_DOUBLE_EQ(n.rank_peak_flops(Precision::Double), 1.8e9 * 32);
  EXPECT_DOUBLE_EQ(n.rank_peak_flops(Precision::Single), 2 * 1.8e9 * 32);
  EXPECT_DOUBLE_EQ(n.rank_peak_flops(Precision::Double, false), 2.7e9 * 32);
  EXPECT_DOUBLE_EQ(n.rank_memory_Bps(), 12e9);
  c.set("node.ranks_per_node=56");
  EXPECT_DOUBLE_EQ(NodeSpec::from_config(c).rank_memory_Bps(), 282e9 / 56);
  c.set("node.ranks_per_node=2");
  c.set("node.cores_per_rank=28");
  n = NodeSpec::from_config(c);
  EXPECT_DOUBLE_EQ(n.rank_peak_flops(Precision::Double), 28 * 1.8e9 * 32);
  EXPECT_DOUBLE_EQ(n.rank_memory_Bps(), 141e9);
  c.set("node.avx512_frequency=0Hz");  // same as node.frequency
  EXPECT_DOUBLE_EQ(NodeSpec::from_config(c).vector_frequency_hz, 2.7e9);
}

TEST(NodeSpec, ZeroOrNegativePeaksAreRejected) {
  runtime::Config c;
  EXPECT_NE(error_of([&] { c.set("node.frequency=0GHz"); }).find("node.frequency"),
            std::string::npos);
  EXPECT_NE(error_of([&] { c.set("node.flops_per_cycle=-4"); }).find("node.flops_per_cycle"),
            std::string::npos);
  EXPECT_NE(error_of([&] { c.set("gpu.peak_flops=0Tflops"); }).find("gpu.peak_flops"),
            std::string::npos);
  EXPECT_NE(error_of([&] { c.set("node.memory_bw=-1GB/s"); }).find("node.memory_bw"),
            std::string::npos);
  NodeSpec n = NodeSpec::from_config(c);
  n.flops_per_cycle = 0;
  EXPECT_NE(
      error_of([&] { CpuModel(n, nullptr); }).find("node.flops_per_cycle = 0: must be positive"),
      std::string::npos);
}

const char* kProfile = R"(format = 1
[reference]
description = "test"
peak_flops = "100Gflops"
memory_bw = "10GB/s"
[cpu.dgemm]
classes = [ { up_to = 64, efficiency = 0.5, overhead = "2us" },
            { up_to = 256, efficiency = 0.7, overhead = "3us" },
            { efficiency = 0.9, overhead = "4us", r2 = 0.9998, samples = 12 } ]
[gpu.dgemm]
classes = [ { efficiency = 0.8, overhead = "5us" } ]
)";

TEST(EfficiencyProfile, LooksUpTheSizeClass) {
  EfficiencyProfile p = EfficiencyProfile::parse(kProfile, "p.toml");
  KernelId dgemm{Kernel::Gemm, Precision::Double};
  EXPECT_EQ(p.find(Device::Cpu, dgemm, 64)->efficiency, 0.5);
  EXPECT_EQ(p.find(Device::Cpu, dgemm, 65)->efficiency, 0.7);
  EXPECT_EQ(p.find(Device::Cpu, dgemm, 100000)->overhead_s, 4e-6);
  EXPECT_EQ(p.find(Device::Gpu, dgemm, 1)->efficiency, 0.8);
  EXPECT_EQ(p.find(Device::Cpu, {Kernel::Gemm, Precision::Single}, 10), nullptr);
  EXPECT_EQ(p.reference_peak_flops, 100e9);
  EfficiencyProfile q = EfficiencyProfile::parse(p.to_toml(), "round trip");
  EXPECT_EQ(q.find(Device::Cpu, dgemm, 200)->overhead_s, 3e-6);
  EXPECT_EQ(q.find(Device::Cpu, dgemm, 300)->r2, 0.9998);
  EXPECT_EQ(q.reference_memory_Bps, 10e9);
}

TEST(EfficiencyProfile, BadFilesNameTheProblem) {
  auto parse = [](const std::string& text) {
    return error_of([&] { EfficiencyProfile::parse(text, "bad.toml"); });
  };
  EXPECT_NE(
      parse("[cpu.dgemn]\nclasses = [{ efficiency = 1 }]\n").find("unknown kernel \"cpu.dgemn\""),
      std::string::npos);
  EXPECT_NE(parse("[cpu.dgemm]\nclasses = [{ efficiency = 0 }]\n").find("must be positive"),
            std::string::npos);
  EXPECT_NE(parse("[cpu.dgemm]\nclasses = [{ overhead = \"1us\" }]\n").find("needs an efficiency"),
            std::string::npos);
  EXPECT_NE(
      parse("[cpu.dgemm]\nclasses = [{ efficiency = 1, overhead = \"1\" }]\n").find("no unit"),
      std::string::npos);
  EXPECT_NE(parse("[cpu.dgemm]\nclasses = [{ up_to = 9, efficiency = 1 }, { up_to = 8, "
                  "efficiency = 1 }]\n")
                .find("up_to must increase"),
            std::string::npos);
  EXPECT_NE(parse("[cpu.dgemm]\n").find("needs classes"), std::string::npos);
  EXPECT_NE(parse("[tpu.dgemm]\n").find("unknown entry \"tpu\""), std::string::npos);
  EXPECT_NE(parse("[cpu.dgemm]\nclasses = [{ efficiency = 1 }]\n").find("no ConfigError"),
            std::string::npos);
  EXPECT_NE(error_of([] { EfficiencyProfile::load("/nonexistent/p.toml"); }).find("cannot be read"),
            std::string::npos);
}

TEST(EfficiencyProfile, RelativePathsFollowThePlatformFile) {
  EXPECT_EQ(resolve_profile_path("p.toml", "/a/b/host.toml:14"), "/a/b/p.toml");
  EXPECT_EQ(resolve_profile_path("p.toml", "host.toml:14"), "p.toml");
  EXPECT_EQ(resolve_profile_path("p.toml", "--set"), "p.toml");
  EXPECT_EQ(resolve_profile_path("/x/p.toml", "/a/host.toml:1"), "/x/p.toml");
}

TEST(CpuModel, ComputeAndMemoryBoundTerms) {
  runtime::Config c;
  NodeSpec n = NodeSpec::from_config(c);
  auto profile = std::make_shared<EfficiencyProfile>(EfficiencyProfile::parse(kProfile, "p"));
  CpuModel m(n, profile);
  ComputeTask gemm{Kernel::Gemm, Precision::Double, 1e9, 1e6, {1000, 1000, 500}};
  EXPECT_DOUBLE_EQ(m.seconds(gemm), 1e9 / (57.6e9 * 0.9) + 4e-6);
  // A rank-1 update is memory-bound even for a compute-bound kernel: the roofline wins.
  ComputeTask thin{Kernel::Gemm, Precision::Double, 2e6, 1.6e7, {1000, 1000, 1}};
  EXPECT_DOUBLE_EQ(m.seconds(thin), 1.6e7 / 12e9 + 2e-6);
  EXPECT_EQ(m.time(ComputeTask{Kernel::Gemm, Precision::Double, 0, 0, {0, 5, 5}}).ps(), 0);
}

TEST(GpuModel, RooflineLinksAndTimelines) {
  runtime::Config c;
  c.set("gpu.count=2");
  c.set("gpu.link_bw=50GB/s");
  c.set("gpu.link_latency=2us");
  GpuModel g(GpuSpec::from_config(c), nullptr);
  ComputeTask gemm{Kernel::Gemm, Precision::Double, 67e12, 1e9, {8192, 8192, 8192}};
  EXPECT_EQ(g.kernel_time(gemm), runtime::SimTime::from_seconds(1.0));
  EXPECT_EQ(g.copy_time(50000000, CopyKind::HostToDevice),
            runtime::SimTime::from_seconds(2e-6 + 1e-3));
  EXPECT_EQ(g.copy_time(3350000000, CopyKind::DeviceToDevice),
            runtime::SimTime::from_seconds(2e-3));
  GpuDevice d;
  using E = GpuDevice::Engine;
  auto ns = [](int v) { return runtime::SimTime::from_ns(v); };
  EXPECT_EQ(d.occupy(E::Compute, ns(0), ns(10)), ns(10));
  EXPECT_EQ(d.occupy(E::Compute, ns(5), ns(10)), ns(20)) << "kernels run one after another";
  EXPECT_EQ(d.occupy(E::HostToDevice, ns(5), ns(10)), ns(15)) << "copies overlap kernels";
  EXPECT_TRUE(d.reserve(100, 150));
  EXPECT_FALSE(d.reserve(60, 150));
  d.release(100);
  EXPECT_EQ(d.used_bytes(), 0u);
}

TEST(GpuModel, DevicesNeedPositivePeaks) {
  GpuSpec s;
  s.count = 1;
  s.peak_flops = 0;
  EXPECT_NE(error_of([&] { GpuModel(s, nullptr); }).find("gpu.peak_flops must be positive"),
            std::string::npos);
}

}  // namespace
}  // namespace simmpi::hardware
