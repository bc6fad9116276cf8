// SPDX-License-Identifier: Apache-2.0
// flow_bench's workload run by SimGrid (3.32, public s4u API), the comparison peer of
// flow_bench: benchmark figures are recorded as ratios against a peer run in the same command.
// Not part of simmpi: built only when SimGrid is found, never linked into a simmpi library.
//
// Platform: one s4u::create_fatTree_zone (FatTreeZone: XGFT with D-mod-K routing, Zahavi 2010)
// of the same shape as flow_bench's full tree: down = m_1..m_h, up = 1, m_1..m_{h-1}, one link
// per parent, SPLITDUPLEX links (one up and one down link per cable, as flow_bench), 100 Gb/s
// (12.5e9 B/s), latency 0; no loopback and no limiter link (flow_bench has no NIC link either).
// Network model: CM02 (network/model:CM02: bandwidth and latency factors 1, weight-S 0, i.e.
// plain max-min with each flow's weight 1) with network/crosstraffic:0 (otherwise each flow also
// takes 5% on its reverse route), Lazy update (SimGrid's default). SimGrid's default model, LV08,
// would scale bandwidth by 0.97 and weight flows by their route's length (RTT-fairness).
//
// Workload: F actors, one per slot s, each a loop of blocking Comm::sendto(src host, dst host,
// bytes) (host to host, no mailbox), the flows drawn by flow_workload.hpp from a global start
// counter as flow_bench does. An event is one arrival or one departure (2 per completed flow).
// Timing starts once min(F, 20,000) flows have completed and stops after `events` events
// (10 times fewer when F > nodes), as in flow_bench; then the process exits (std::_Exit). setup_s
// is the wall time to build the platform and the actors (not in wall_s).
//
//   flow_bench_simgrid --tree "[16, 8, 8]" --flows 1000 [--events N] [--cfg=...]
// prints one line like flow_bench's, with peer=simgrid:
//   bench=flow peer=simgrid layout=custom flows=1000 nodes=1024 cap=none events=... wall_s=...
//   events_per_s=... ns_per_event=... setup_s=... sim_ps=... model=CM02
// sim_ps is SimGrid's clock (seconds, double) at the last timed delivery, rounded to ps. On the
// same tree, flows and events it equals flow_bench's sim_ps up to SimGrid's precision (its
// maxmin/precision is 1e-5, surf/precision 1e-9 s by default) as long as no two flows finish at
// the same instant: the two simulators wake such flows in different orders, the global start
// counter then hands different flows to their slots, and the runs diverge (same statistics,
// different sim_ps). Checked: 2, 10 and 100 flows on 32 nodes, and 100 flows on 128 nodes with
// --cfg=maxmin/precision:1e-11 --cfg=surf/precision:1e-15, give every delivery in the same
// order at the same time (within 120 ps); 1,000 flows on 1,024 nodes agree until the first tie.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "flow_workload.hpp"

namespace sg4 = simgrid::s4u;

namespace {

using Clock = std::chrono::steady_clock;

struct Loop {
  std::vector<sg4::Host*> hosts;  // by fat-tree position (the node id of flow_bench)
  int nodes = 0;
  int flows = 0;
  std::uint64_t started = 0;
  std::uint64_t completed = 0;
  std::uint64_t warm = 0;
  std::uint64_t events = 0;
  std::uint64_t c0 = 0;
  bool timing = false;
  Clock::time_point t0;
  double setup_s = 0;
};
Loop g;

void report(double wall) {
  double ev = 2.0 * static_cast<double>(g.completed - g.c0);
  std::printf(
      "bench=flow peer=simgrid layout=custom flows=%d nodes=%d cap=none events=%.0f wall_s=%.3f "
      "events_per_s=%.0f ns_per_event=%.1f setup_s=%.3f sim_ps=%lld model=CM02\n",
      g.flows, g.nodes, ev, wall, ev / wall, wall / ev * 1e9, g.setup_s,
      static_cast<long long>(std::llround(sg4::Engine::get_clock() * 1e12)));
  std::fflush(stdout);
}

void slot_loop(int slot) {
  for (;;) {
    simmpi::bench::FlowDraw f = simmpi::bench::draw_flow(g.started++, slot, g.nodes);
    sg4::Comm::sendto(g.hosts[f.src], g.hosts[f.dst], f.bytes);
    ++g.completed;
    if (!g.timing) {
      if (g.completed >= g.warm) {
        g.timing = true;
        g.c0 = g.completed;
        g.t0 = Clock::now();
      }
    } else if (2 * (g.completed - g.c0) >= g.events) {
      // Leave at once: after Actor::kill_all, actors already woken at this instant ran on and
      // reported again, and tearing down 100,000 actors took over 10 minutes.
      report(std::chrono::duration<double>(Clock::now() - g.t0).count());
      std::_Exit(0);
    }
  }
}

std::vector<unsigned> parse_list(const char* text) {  // "[16, 8, 8]" -> {16, 8, 8}
  std::vector<unsigned> out;
  for (const char* p = text; *p;) {
    if (*p >= '0' && *p <= '9') {
      char* end = nullptr;
      out.push_back(static_cast<unsigned>(std::strtoul(p, &end, 10)));
      p = end;
    } else {
      ++p;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  auto setup0 = Clock::now();
  // Plain max-min, as flow_bench's solver (see the header comment). Actor stacks: SimGrid's
  // default (8 MiB mapped, touched lazily, one guard page) up to 30,000 flows; beyond, 64 KiB
  // without guard page (two maps per stack would exceed the kernel's default map count). Given
  // as the first --cfg arguments so that the command line's own --cfg=... override them.
  int flows_arg = 0;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--flows") == 0) flows_arg = std::atoi(argv[i + 1]);
  std::vector<char*> args(argv, argv + argc);
  static char cfg_model[] = "--cfg=network/model:CM02";
  static char cfg_cross[] = "--cfg=network/crosstraffic:0";
  static char cfg_stack[] = "--cfg=contexts/stack-size:64";
  static char cfg_guard[] = "--cfg=contexts/guard-size:0";
  args.insert(args.begin() + 1, {cfg_model, cfg_cross});
  if (flows_arg > 30000) args.insert(args.begin() + 1, {cfg_stack, cfg_guard});
  int nargs = static_cast<int>(args.size());
  args.push_back(nullptr);
  sg4::Engine e(&nargs, args.data());  // consumes --cfg=... and --log=...
  const char* tree = "[16, 8, 8]";
  long long events_arg = 0;
  for (int i = 1; i < nargs; ++i) {
    if (std::strcmp(args[i], "--tree") == 0 && i + 1 < nargs) tree = args[++i];
    if (std::strcmp(args[i], "--flows") == 0 && i + 1 < nargs) g.flows = std::atoi(args[++i]);
    if (std::strcmp(args[i], "--events") == 0 && i + 1 < nargs) events_arg = std::atoll(args[++i]);
  }
  if (g.flows <= 0) g.flows = 1000;
  g.events = events_arg > 0 ? static_cast<std::uint64_t>(events_arg) : 2000000;

  std::vector<unsigned> down = parse_list(tree);
  if (down.empty()) {
    std::fprintf(stderr, "flow_bench_simgrid: bad --tree %s\n", tree);
    return 2;
  }
  std::vector<unsigned> up(down.size(), 1), links(down.size(), 1);
  for (std::size_t i = 1; i < down.size(); ++i) up[i] = down[i - 1];
  g.nodes = 1;
  for (unsigned m : down) g.nodes *= static_cast<int>(m);
  g.hosts.assign(static_cast<std::size_t>(g.nodes), nullptr);

  auto set_host = [](sg4::NetZone* zone, const std::vector<unsigned long>& /*coord*/,
                     unsigned long id) {
    sg4::Host* h = zone->create_host("node-" + std::to_string(id), 1e9)->seal();
    g.hosts.at(id) = h;
    return std::make_pair(h->get_netpoint(),
                          static_cast<simgrid::kernel::routing::NetPoint*>(nullptr));
  };
  sg4::NetZone* zone = sg4::create_fatTree_zone(
      "fat_tree", e.get_netzone_root(),
      sg4::FatTreeParams(static_cast<unsigned>(down.size()), down, up, links),
      sg4::ClusterCallbacks(set_host), 100e9 / 8, 0.0, sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  for (sg4::Host* h : g.hosts) {
    if (h == nullptr) {
      std::fprintf(stderr, "flow_bench_simgrid: a node of the tree has no host\n");
      return 2;
    }
  }

  g.warm = static_cast<std::uint64_t>(std::min(g.flows, 20000));
  if (g.flows > g.nodes) g.events /= 10;
  for (int s = 0; s < g.flows; ++s)
    sg4::Actor::create("slot-" + std::to_string(s), g.hosts[static_cast<std::size_t>(s % g.nodes)],
                       slot_loop, s);
  g.setup_s = std::chrono::duration<double>(Clock::now() - setup0).count();
  e.run();
  return 0;
}
