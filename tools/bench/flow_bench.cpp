// SPDX-License-Identifier: Apache-2.0
// Throughput of the stream-level network (routing, max-min solver, finish queue, engine): a
// closed loop keeps exactly F flows in flight on a full 3-level fat-tree; each flow goes from a
// fixed source to a random destination with a log-uniform size of 1 KiB to 1 MiB, and its
// delivery starts the next one at once (NIC and hop latencies are 0 so concurrency stays F).
// An event is one flow arrival or one departure. Timing starts once every slot has turned over
// (at most 20,000 flows). The fixed layout packs up to 6 flows per node at 100k flows: every link
// is then saturated, rate changes ripple far, and that line times 10 times fewer events.
//
//   flow_bench [--quick | --events N] [--cap | --cap-bw 1GB/s] [--tree "[16, 8, 8]" --flows 1000]
// prints, for F = 1k, 10k, 100k, on a tree scaled with F (about one flow per node) and on a
// fixed 16,384-node tree, one parseable line:
//   bench=flow layout=scaled flows=1000 nodes=1024 events=... wall_s=... events_per_s=...
//   ns_per_event=... solved_flows_per_event=... sim_ps=... digest=...
// sim_ps (simulated time at the end) and digest (a hash of every delivery's time and slot) do
// not depend on the machine: two builds that print the same ones simulated the same thing.
// --cap limits each flow to 62% of the link (SST/macro's 1.8 of 2.9 GB/s), --cap-bw to a given
// rate.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "flow_workload.hpp"
#include "hardware/network/fat_tree.hpp"
#include "hardware/network/flow_network.hpp"
#include "hardware/seeded_random.hpp"
#include "runtime/config/config.hpp"

namespace simmpi::hardware {
namespace {

struct Loop {
  runtime::Engine engine;
  std::unique_ptr<FlowNetwork> net;
  int nodes = 0;
  std::uint64_t started = 0;
  std::uint64_t completed = 0;
  std::uint64_t digest = 0;  // of every delivery's (time, slot): equal digests, equal simulations

  void start(int slot) {
    bench::FlowDraw f = bench::draw_flow(started++, slot, nodes);
    net->transfer(f.src, f.dst, f.bytes,
                  ArrivalNotice{&Loop::arrives, this, static_cast<std::uint64_t>(slot)});
  }
  // The network tells the arrival when the last byte leaves; the slot's next flow starts when
  // it has arrived.
  static void arrives(void* self, std::uint64_t slot, SimTime arrival) {
    auto* l = static_cast<Loop*>(self);
    l->engine.schedule(arrival, Action{&Loop::delivered, self, slot});
  }
  static void delivered(void* self, std::uint64_t slot) {
    auto* l = static_cast<Loop*>(self);
    ++l->completed;
    l->digest = mix64(l->digest ^ static_cast<std::uint64_t>(l->engine.now().ps()), slot);
    l->start(static_cast<int>(slot));
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const char* g_cap_bw = "7.75GB/s";  // 62% of 12.5 GB/s

void run(const char* layout, const char* down, int flows, bool cap, std::uint64_t events) {
  runtime::Config c;
  c.set(std::string("network.fat_tree.down=") + down);
  c.set("network.hop_latency=0ns");
  c.set("network.nic_latency=0ns");
  if (cap) c.set(std::string("network.flow_max_bw=") + g_cap_bw);
  Loop loop;
  loop.net = std::make_unique<FlowNetwork>(loop.engine, FatTree::from_config(c), c);
  loop.nodes = loop.net->node_count();
  for (int s = 0; s < flows; ++s) loop.start(s);
  // Warm up until every slot has turned over once (at most 20,000 flows), then time `events`
  // events; 10 times fewer where flows outnumber nodes, whose events cost far more.
  auto warm = static_cast<std::uint64_t>(std::min(flows, 20000));
  while (loop.completed < warm && loop.engine.step()) {
  }
  if (flows > loop.nodes) events /= 10;
  std::uint64_t c0 = loop.completed;
  const MaxMinSolver& sv = loop.net->solver();
  std::uint64_t s0 = sv.solves(), f0 = sv.solved_flows(), r0 = sv.rounds(),
                w0 = sv.component_solves();
  auto t0 = std::chrono::steady_clock::now();
  while (2 * (loop.completed - c0) < events && loop.engine.step()) {
  }
  double wall = seconds_since(t0);
  double ev = 2.0 * static_cast<double>(loop.completed - c0);
  double solves = static_cast<double>(sv.solves() - s0);
  double solved = static_cast<double>(sv.solved_flows() - f0);
  double rounds = static_cast<double>(sv.rounds() - r0);
  double whole = static_cast<double>(sv.component_solves() - w0);
  std::printf(
      "bench=flow layout=%s flows=%d nodes=%d cap=%s events=%.0f wall_s=%.3f "
      "events_per_s=%.0f ns_per_event=%.1f solves_per_event=%.2f flows_per_solve=%.1f "
      "rounds_per_solve=%.2f component_solves=%.4f%% sim_ps=%lld digest=%016llx\n",
      layout, flows, loop.nodes, cap ? g_cap_bw : "none", ev, wall, ev / wall, wall / ev * 1e9,
      solves / ev, solves > 0 ? solved / solves : 0.0, solves > 0 ? rounds / solves : 0.0,
      solves > 0 ? 100 * whole / solves : 0.0, static_cast<long long>(loop.engine.now().ps()),
      static_cast<unsigned long long>(loop.digest));
  std::fflush(stdout);
}

}  // namespace
}  // namespace simmpi::hardware

int main(int argc, char** argv) {
  bool quick = false, cap = false;
  const char* tree = nullptr;
  int flows = 0;
  long long events_arg = 0;
  for (int i = 1; i < argc; ++i) {
    quick |= std::strcmp(argv[i], "--quick") == 0;
    cap |= std::strcmp(argv[i], "--cap") == 0;
    if (std::strcmp(argv[i], "--tree") == 0 && i + 1 < argc) tree = argv[++i];
    if (std::strcmp(argv[i], "--flows") == 0 && i + 1 < argc) flows = std::atoi(argv[++i]);
    if (std::strcmp(argv[i], "--events") == 0 && i + 1 < argc) events_arg = std::atoll(argv[++i]);
    if (std::strcmp(argv[i], "--cap-bw") == 0 && i + 1 < argc) {
      cap = true;
      simmpi::hardware::g_cap_bw = argv[++i];
    }
  }
  std::uint64_t events = events_arg > 0 ? static_cast<std::uint64_t>(events_arg)
                         : quick        ? 200000
                                        : 2000000;
  if (tree && flows > 0) {  // one configuration, e.g. for a profiler
    simmpi::hardware::run("custom", tree, flows, cap, events);
    return 0;
  }
  std::printf(
      "# flow_bench: closed loop of F flows on a full 3-level fat-tree (D-mod-K, "
      "100Gbps links, latencies 0), random destinations, sizes 1KiB-1MiB log-uniform; "
      "%llu timed events per line\n",
      static_cast<unsigned long long>(events));
  using simmpi::hardware::run;
  run("scaled", "[16, 8, 8]", 1000, cap, events);
  run("scaled", "[32, 16, 20]", 10000, cap, events);
  if (!quick) run("scaled", "[64, 40, 40]", 100000, cap, events);
  run("fixed", "[32, 32, 16]", 1000, cap, events);
  run("fixed", "[32, 32, 16]", 10000, cap, events);
  if (!quick) run("fixed", "[32, 32, 16]", 100000, cap, events);
  return 0;
}
