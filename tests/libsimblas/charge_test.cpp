// SPDX-License-Identifier: Apache-2.0
// Calls inside a simulation are charged the node model's time, through the scheduler: roofline
// bounds by hand, profile efficiencies, SIMMPI_COMPUTE and SIMMPI_SLEEP, execute mode, and
// identical results and times across runs.
#include <cblas.h>
#include <gtest/gtest.h>
#include <simmpi_compute.h>

#include <cstdio>
#include <fstream>

#include "sim_fixture.hpp"

namespace simmpi::blas::testing {
namespace {

// The default node: a rank is one core at 1.8 GHz (AVX-512) x 32 flops per cycle, and draws
// min(282 GB/s / 1, 1 x 12 GB/s) from memory.
constexpr double kRankPeak = 1.8e9 * 32, kRankBw = 12e9;

TEST(Charge, DenseKernelsAreChargedTheirRooflineBound) {
  Sim sim({});
  double t_gemm = -1, t_axpy = -1, t_trsm = -1;
  sim.run([&](int) {
    // 2 * 1000 * 1000 * 100 flops; its 17.6 MB take less than the flops at 12 GB/s.
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1000, 1000, 100, 1.0, nullptr, 1000,
                nullptr, 100, 1.0, nullptr, 1000);
    t_gemm = sim.now_s();
    cblas_daxpy(1000000, 2.0, nullptr, 1, nullptr, 1);  // 24 MB of traffic
    t_axpy = sim.now_s() - t_gemm;
    cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, 512, 4096, 1.0f,
                nullptr, 512, nullptr, 512);  // single precision: twice the peak
    t_trsm = sim.now_s() - t_gemm - t_axpy;
  });
  EXPECT_NEAR(t_gemm, 2e8 / kRankPeak, 1e-12);
  EXPECT_NEAR(t_axpy, 24e6 / kRankBw, 1e-12);
  EXPECT_NEAR(t_trsm, 512.0 * 512 * 4096 / (2 * kRankPeak), 1e-12);
}

TEST(Charge, ModelModeTimesDoNotDependOnScalarValues) {
  // BLAS returns at once from DAXPY with alpha = 0; in model mode alpha may come from folded
  // (meaningless) data, so the call is charged in full whatever its value.
  Sim sim({});
  double t_zero = -1, t_two = -1;
  sim.run([&](int) {
    cblas_daxpy(1000000, 0.0, nullptr, 1, nullptr, 1);
    t_zero = sim.now_s();
    cblas_daxpy(1000000, 2.0, nullptr, 1, nullptr, 1);
    t_two = sim.now_s() - t_zero;
  });
  EXPECT_NEAR(t_zero, 24e6 / kRankBw, 1e-12);
  EXPECT_EQ(t_zero, t_two);
}

TEST(Charge, ComputeAndSleepMacros) {
  Sim sim({"node.frequency=2GHz", "node.flops_per_cycle=16"});
  double t1 = -1, t2 = -1, t3 = -1;
  sim.run([&](int) {
    SIMMPI_COMPUTE(3.2e9, 0);  // scalar clock: 2 GHz x 16 = 32 Gflop/s
    t1 = sim.now_s();
    SIMMPI_COMPUTE(0, 6e9);  // 12 GB/s
    t2 = sim.now_s() - t1;
    SIMMPI_SLEEP(0.25);
    t3 = sim.now_s() - t1 - t2;
  });
  EXPECT_NEAR(t1, 0.1, 1e-12);
  EXPECT_NEAR(t2, 0.5, 1e-12);
  EXPECT_NEAR(t3, 0.25, 1e-12);
}

TEST(Charge, DeferredChargesAddUpWithoutTimePassing) {
  Sim sim({"node.frequency=2GHz", "node.flops_per_cycle=16"}, 2);
  std::vector<double> deferred(2), mid(2), total(2), elapsed(2), after(2);
  sim.run([&](int r) {
    simmpi_compute_defer_begin();
    SIMMPI_COMPUTE(3.2e9 * (r + 1), 0);  // 0.1 s per unit at 32 Gflop/s
    mid[r] = simmpi_compute_deferred();
    cblas_daxpy(1000000, 2.0, nullptr, 1, nullptr, 1);  // 24 MB at 12 GB/s: 2 ms
    elapsed[r] = sim.now_s();
    total[r] = simmpi_compute_defer_end();
    SIMMPI_SLEEP(0.5);  // not deferred, and deferral has ended
    after[r] = sim.now_s();
    deferred[r] = simmpi_compute_deferred();
  });
  for (int r = 0; r < 2; ++r) {
    EXPECT_NEAR(mid[r], 0.1 * (r + 1), 1e-12) << r;
    EXPECT_NEAR(total[r], 0.1 * (r + 1) + 24e6 / kRankBw, 1e-12) << r;
    EXPECT_EQ(elapsed[r], 0.0) << r;
    EXPECT_NEAR(after[r], 0.5, 1e-12) << r;
    EXPECT_EQ(deferred[r], 0.0) << r;
  }
}

TEST(ChargeDeathTest, DeferralsDoNotNest) {
  EXPECT_EXIT(
      {
        Sim sim({});
        sim.run([&](int) {
          simmpi_compute_defer_begin();
          simmpi_compute_defer_begin();
        });
      },
      ::testing::ExitedWithCode(1), "simmpi_compute_defer_begin.*do not nest");
}

TEST(Charge, RanksShareTheNode) {
  // Four single-core ranks on a 2-core node time-share it: each has half a core, whose 6 GB/s
  // is less than a quarter of the 80 GB/s node bandwidth.
  Sim sim({"node.ranks_per_node=4", "node.sockets=1", "node.cores_per_socket=2",
           "node.memory_bw=80GB/s"},
          4);
  std::vector<double> t(4);
  sim.run([&](int r) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 100, 100, 100, 1.0, nullptr, 100,
                nullptr, 100, 1.0, nullptr, 100);
    double t0 = sim.now_s();
    cblas_dcopy(1000000, nullptr, 1, nullptr, 1);
    t[r] = sim.now_s() - t0;
    EXPECT_NEAR(t0, 2e6 / (kRankPeak / 2), 1e-12);
  });
  EXPECT_NEAR(t[3], 16e6 / 6e9, 1e-12);
}

TEST(Charge, ExecuteModeComputesAndChargesTheSameTime) {
  double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {};
  double t_exec = -1, t_model = -1;
  Sim exec({"blas.mode=execute"});
  exec.run([&](int) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2);
    t_exec = exec.now_s();
  });
  EXPECT_EQ(c[0], 1 * 5 + 3 * 6);
  EXPECT_EQ(c[3], 2 * 7 + 4 * 8);
  double untouched[4] = {-1, -1, -1, -1};
  Sim model({});
  model.run([&](int) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, untouched,
                2);
    t_model = model.now_s();
  });
  EXPECT_EQ(untouched[0], -1) << "model mode wrote C";
  EXPECT_EQ(t_exec, t_model);
  EXPECT_GT(t_model, 0);
}

std::vector<double> model_run(int seed) {
  std::vector<double> r;
  Sim sim({"runtime.seed=" + std::to_string(seed)}, 2);
  sim.run([&](int rank) {
    for (int i = 0; i < 5; ++i) {
      r.push_back(static_cast<double>(cblas_idamax(1000 + rank, nullptr, 1)));
      cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, 64, 999 + i, 1.0,
                  nullptr, 64, nullptr, 64);
      r.push_back(sim.now_s());
    }
  });
  return r;
}

TEST(Charge, ModelRunsAreDeterministic) {
  EXPECT_EQ(model_run(1), model_run(1));
  EXPECT_NE(model_run(1), model_run(2)) << "the stand-in indices follow runtime.seed";
}

TEST(Charge, ProfileEfficienciesAndMissingKernelsWarnOnce) {
  std::string path = ::testing::TempDir() + "/simblas_profile_test.toml";
  std::ofstream(path) << "format = 1\n[cpu.dgemm]\nclasses = [\n"
                         "  { up_to = 64, efficiency = 0.25, overhead = \"2us\" },\n"
                         "  { efficiency = 0.5, overhead = \"1us\" },\n]\n";
  Sim sim({"blas.profile=" + path});
  double t_small = -1, t_large = -1, t_trsm = -1;
  ::testing::internal::CaptureStderr();
  sim.run([&](int) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1000, 1000, 64, 1.0, nullptr, 1000,
                nullptr, 64, 1.0, nullptr, 1000);
    t_small = sim.now_s();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1000, 1000, 65, 1.0, nullptr, 1000,
                nullptr, 65, 1.0, nullptr, 1000);
    t_large = sim.now_s() - t_small;
    for (int i = 0; i < 3; ++i)
      cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, 100, 100, 1.0,
                  nullptr, 100, nullptr, 100);
    t_trsm = sim.now_s() - t_small - t_large;
  });
  std::string err = ::testing::internal::GetCapturedStderr();
  std::remove(path.c_str());
  EXPECT_NEAR(t_small, 2e6 * 64 / (kRankPeak * 0.25) + 2e-6, 1e-12);
  EXPECT_NEAR(t_large, 2e6 * 65 / (kRankPeak * 0.5) + 1e-6, 1e-12);
  EXPECT_NEAR(t_trsm, 3 * 1e6 / kRankPeak, 1e-12) << "a kernel missing from the profile runs at "
                                                     "its roofline bound";
  auto first = err.find("no entry for kernel cpu.dtrsm");
  EXPECT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find("no entry for kernel", first + 1), std::string::npos)
      << "warned more than once: " << err;
}

}  // namespace
}  // namespace simmpi::blas::testing
