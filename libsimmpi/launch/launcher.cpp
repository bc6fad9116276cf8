// SPDX-License-Identifier: Apache-2.0
// The program's real entry: parse the command line and the platform, build the machine and the
// job, run every rank's main as a fiber, then print the summary.
#include <dlfcn.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>

#include "hardware/compute/compute_model.hpp"
#include "hardware/platform.hpp"
#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/comm/ports.hpp"
#include "libsimmpi/core/world.hpp"
#include "libsimmpi/info/info_objects.hpp"
#include "libsimmpi/io/file.hpp"
#include "libsimmpi/launch/launch_options.hpp"
#include "libsimmpi/launch/library_privatization.hpp"
#include "libsimmpi/launch/own_time_setup.hpp"
#include "libsimmpi/launch/platform_presets.hpp"
#include "libsimmpi/launch/rank_life.hpp"
#include "libsimmpi/launch/run_reports.hpp"
#include "libsimmpi/p2p/matched_messages.hpp"
#include "libsimmpi/rma/window.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/help.hpp"
#include "runtime/core/error.hpp"
#include "runtime/core/host_clock.hpp"
#include "runtime/core/host_memory.hpp"
#include "runtime/fold/fold_memory.hpp"
#include "runtime/host_time/heavy_phase.hpp"
#include "runtime/host_time/uncharged_compute.hpp"
#include "runtime/privatize/program_image.hpp"

// libsimmpi's malloc wrapper (malloc_interpose.cpp), which simmpicc's --wrap=malloc puts in
// place of the program's malloc.
extern "C" void* __wrap_malloc(std::size_t bytes);

namespace simmpi::mpi {
namespace {

UserMain g_user_main = nullptr;
// Whether the program's own malloc reaches libsimmpi's wrapper (linked with -Wl,--wrap=malloc).
bool g_malloc_wrapped = false;

// Constructs std::cout, std::cerr... while libsimmpi.so loads, before the start hook captures the
// program's pristine data: in a C++ program those stream objects live in the program's data
// (copy relocations), and the program's own constructors, which would build them, run only
// inside ranks. Every rank then starts with constructed streams of its own.
const std::ios_base::Init g_streams_constructed;

// The platform file, then the assignments of $SIMMPI_SET (space-separated key=value, for
// settings a user wants in every run, e.g. SIMMPI_SET=runtime.host_time=ignore), then --set.
runtime::Config load_config(const LaunchOptions& o) {
  runtime::Config config;
  if (!o.platform.empty()) config.load_file(find_platform_file(o.platform));
  if (const char* env = std::getenv("SIMMPI_SET")) {
    std::istringstream words(env);
    for (std::string a; words >> a;) {
      auto eq = a.find('=');
      if (eq == std::string::npos || eq == 0)
        throw ConfigError("SIMMPI_SET: \"" + a +
                          "\": expected key=value, e.g. "
                          "SIMMPI_SET=runtime.host_time=ignore");
      config.set_value(a.substr(0, eq), a.substr(eq + 1), "SIMMPI_SET");
    }
  }
  for (const std::string& s : o.sets) config.set(s);
  return config;
}

// mpirun's rules: a rank that fails ends the job; a rank that used MPI must finalize it. A rank
// that exits with a nonzero status after MPI_Finalize (or without MPI) lets the others finish,
// and the job's status is the bitwise OR of all such statuses, as MPICH's mpiexec (Hydra)
// reports it: ranks exiting 1 and 2 make the job exit 3.
void on_rank_exit(World& world, runtime::Process& p, int& job_status) {
  const RankState& st = world.rank(p.id());
  if (p.exit_status() != 0 && (st.finalized || !st.initialized)) {
    std::fprintf(stderr, "simmpi: rank %d exited with status %d at simulated time %s\n", p.id(),
                 p.exit_status(), p.finish_time().to_string().c_str());
    job_status |= p.exit_status() & 0xff;
    return;
  }
  if (p.exit_status() != 0)
    fatal(p.exit_status() & 0xff ? p.exit_status() & 0xff : 1,
          strprintf("rank %d exited with status %d at simulated time %s; the job is stopped",
                    p.id(), p.exit_status(), p.finish_time().to_string().c_str()));
  if (st.initialized && !st.finalized)
    fatal(1, strprintf("rank %d returned from main at simulated time %s without calling "
                       "MPI_Finalize",
                       p.id(), p.finish_time().to_string().c_str()));
  if (st.sessions > 0)
    fatal(1, strprintf("rank %d returned from main at simulated time %s with %d MPI_Session%s "
                       "not finalized (MPI_Session_finalize)",
                       p.id(), p.finish_time().to_string().c_str(), st.sessions,
                       st.sessions == 1 ? "" : "s"));
}

// runtime.wall_limit (or MPIEXEC_TIMEOUT): a timer of wall time whose signal ends the run with
// exit status 124, as `timeout` and mpiexec's limit do. The message is made before the timer is
// armed: the handler may only write it and exit. A loop that never calls MPI (or one of
// MPI_Wtime alone, which posts no event) is stopped too.
char g_wall_limit_message[256];

void on_wall_limit(int) {
  const ssize_t ignored =
      write(STDERR_FILENO, g_wall_limit_message, std::strlen(g_wall_limit_message));
  (void)ignored;
  _exit(124);
}

void arm_wall_limit(const runtime::Config& c) {
  double seconds = c.time("runtime.wall_limit").seconds();
  std::string origin = "runtime.wall_limit (" + c.origin("runtime.wall_limit") + ")";
  const char* env = std::getenv("MPIEXEC_TIMEOUT");
  if (seconds <= 0 && env && *env) {
    char* end = nullptr;
    seconds = std::strtod(env, &end);
    if (end == env || *end != '\0' || !(seconds > 0))
      throw ConfigError(
          strprintf("MPIEXEC_TIMEOUT=\"%s\" (environment): not a positive number "
                    "of seconds; unset it or give e.g. MPIEXEC_TIMEOUT=60",
                    env));
    origin = "MPIEXEC_TIMEOUT (environment)";
  }
  if (seconds <= 0) return;
  std::snprintf(g_wall_limit_message, sizeof g_wall_limit_message,
                "\nsimmpi: error: the run was stopped after %g s of wall time, the limit %s "
                "sets; raise it or set runtime.wall_limit=0s for none\n",
                seconds, origin.c_str());
  std::signal(SIGALRM, &on_wall_limit);
  itimerval t{};
  t.it_value.tv_sec = static_cast<time_t>(seconds);
  t.it_value.tv_usec =
      static_cast<suseconds_t>((seconds - static_cast<double>(t.it_value.tv_sec)) * 1e6);
  setitimer(ITIMER_REAL, &t, nullptr);
}

// Automatic folding applies in model mode only: in execute mode the data is computed for real.
void configure_folding(const runtime::Config& c, int ranks) {
  std::uint64_t block = c.size_bytes("runtime.fold_block");
  if (block % static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE)) != 0)
    throw ConfigError(strprintf(
        "runtime.fold_block = %s (%s): not a whole number of 4KiB "
        "pages; e.g. \"32MiB\"",
        c.value_text("runtime.fold_block").c_str(), c.origin("runtime.fold_block").c_str()));
  bool model = c.text("blas.mode") == "model";
  std::uint64_t threshold = model ? c.size_bytes("runtime.fold_threshold") : 0;
  // Folding works through the program's malloc; a build that kept simmpi's libraries but lost
  // the wrap flags (a build system that filtered them) would fold nothing, silently.
  if (threshold != 0 && !g_malloc_wrapped)
    throw ConfigError(strprintf(
        "runtime.fold_threshold = %s (%s) asks to fold the program's allocations, but the "
        "program was linked without simmpi's malloc wrappers, so nothing would be folded. Link "
        "it with simmpicc, or add the flags of `simmpicc -showme:link` (they include "
        "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free), or set "
        "runtime.fold_threshold=0",
        c.value_text("runtime.fold_threshold").c_str(),
        c.origin("runtime.fold_threshold").c_str()));
  runtime::FoldMemory::instance().configure(threshold, block, ranks);
}

// Peak host memory: getrusage's resident set size, except with folded memory, whose block is
// mapped thousands of times: then the largest proportional set size, sampled about once per
// second of wall time (runtime/core/host_memory.hpp).
void sample_memory(runtime::MemoryPeak& peak) {
  if (runtime::FoldMemory::instance().active()) peak.sample_if_due(1.0);
}

// What the scheduler's progress hook does every 65,536 events: sample the memory peak, print
// runtime.heartbeat's line when the simulated time has passed the next multiple of it (simulated
// time and events only, so the output stays the same from run to run), and on a terminal, once
// the run has taken report.progress_after of wall time, keep a progress line redrawn in place
// (never in redirected output, where it would only be noise).
struct Progress {
  const runtime::Engine& engine;
  runtime::MemoryPeak peak;
  runtime::SimTime heartbeat, next_beat;
  double wall0 = 0, show_after = 0, drawn_at = 0;
  std::uint64_t events_at_draw = 0;
  int ranks = 0, ranks_done = 0;
  bool terminal = false, drawn = false;

  static void hook(void* self) {
    auto& p = *static_cast<Progress*>(self);
    sample_memory(p.peak);
    if (p.terminal) p.draw();
    if (p.heartbeat.ps() <= 0 || p.engine.now() < p.next_beat) return;
    p.erase();
    std::fprintf(stderr, "simmpi: heartbeat: simulated time %s, %llu events\n",
                 p.engine.now().to_string().c_str(),
                 static_cast<unsigned long long>(p.engine.events_processed()));
    p.next_beat = p.heartbeat * (p.engine.now().ps() / p.heartbeat.ps() + 1);
  }
  void draw() {
    const double now = runtime::host_wall_seconds();
    if (now - wall0 < show_after || (drawn_at > 0 && now < drawn_at + 0.5)) return;
    const std::uint64_t events = engine.events_processed();
    const double since = drawn_at > 0 ? drawn_at : wall0;
    const double rate = static_cast<double>(events - events_at_draw) / (now - since);
    std::fprintf(stderr, "\rsimmpi: simulated %s, %.2f M events/s, %d of %d ranks done\033[K",
                 engine.now().to_string().c_str(), rate * 1e-6, ranks_done, ranks);
    std::fflush(stderr);
    set_status_line_drawn();
    drawn = true;
    events_at_draw = events;
    drawn_at = now;
  }
  // Clears the progress line before anything else is printed.
  void erase() {
    erase_status_line();
    drawn = false;
  }
};

void print_summary(const runtime::Scheduler& sched, const runtime::Engine& engine, double wall_s,
                   runtime::MemoryPeak& peak) {
  const int ranks = sched.process_count();
  runtime::SimTime end;
  for (int i = 0; i < ranks; ++i)
    end = runtime::max(end, const_cast<runtime::Scheduler&>(sched).process(i).finish_time());
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  double rss_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
  const runtime::FoldMemory& f = runtime::FoldMemory::instance();
  if (f.active()) peak.sample();
  const int spawned = ranks - sched.initial_process_count();
  const std::string spawned_note = spawned > 0 ? strprintf(" (%d spawned)", spawned) : "";
  std::fprintf(stderr, "simmpi: %d ranks%s, simulated time %s, %llu events\n", ranks,
               spawned_note.c_str(), end.to_string().c_str(),
               static_cast<unsigned long long>(engine.events_processed()));
  std::fprintf(stderr, "simmpi: wall time %.3f s, peak memory %.1f MiB\n", wall_s,
               f.active() ? static_cast<double>(peak.peak_bytes()) / 1048576.0 : rss_mib);
  if (f.program_folded())
    std::fprintf(stderr,
                 "simmpi: folded memory: %.1f GiB of addresses shared by the ranks, in %llu "
                 "mappings of one %llu MiB block (peak memory is the proportional set size, "
                 "sampled each second; the resident set size, %.1f MiB, counts the block once "
                 "per mapping)\n",
                 static_cast<double>(f.shared_mapped_bytes()) / 1073741824.0,
                 static_cast<unsigned long long>(f.mappings()),
                 static_cast<unsigned long long>(f.block_bytes() >> 20), rss_mib);
}

// Where the run's host CPU went, for the note on uncharged compute: the whole process's, and
// the simulator's heavy phases' (in TSC ticks, converted with the TSC's rate over the run).
struct RunCpuMeter {
  double wall0_s = runtime::host_wall_seconds();
  std::int64_t cpu0_ns = runtime::host_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
  std::uint64_t tsc0 = runtime::HeavyPhase::now_ticks();
  std::uint64_t heavy0 = runtime::HeavyPhase::total_ticks();

  runtime::RunCpu read(const runtime::Engine& engine) const {
    const double wall_s = runtime::host_wall_seconds() - wall0_s;
    const double ticks = static_cast<double>(runtime::HeavyPhase::now_ticks() - tsc0);
    runtime::RunCpu run;
    run.process_s =
        1e-9 * static_cast<double>(runtime::host_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0_ns);
    run.heavy_phases_s =
        ticks > 0
            ? static_cast<double>(runtime::HeavyPhase::total_ticks() - heavy0) * wall_s / ticks
            : 0;
    run.events = engine.events_processed();
    return run;
  }
};

// The compute trap (runtime/host_time/uncharged_compute.hpp): with runtime.host_time = ignore, a
// run whose CPU outside the simulator's heavy phases was far more than its events need had ranks
// computing, and the prediction left that out. Says so, naming the key.
void note_uncharged_compute(runtime::Scheduler& sched, const runtime::RunCpu& run) {
  if (sched.own_time()) return;  // own code is charged (or replayed)
  const double per_event_us = runtime::uncharged_us_per_event(run);
  if (per_event_us == 0) return;
  std::fprintf(stderr,
               "simmpi: note: the run used %.2f s of host CPU for %llu events (%.0f us each "
               "outside the network's solver, where the simulator needs a few): the ranks' own "
               "code computed, and runtime.host_time = ignore charges none of it; --set "
               "runtime.host_time=measure charges it (docs/compute_time.md)\n",
               run.process_s, static_cast<unsigned long long>(run.events), per_event_us);
}

void print_switches(const runtime::Scheduler& sched) {
  std::uint64_t total = 0;
  const auto counts = sched.switches_by_call();
  for (const auto& c : counts) total += c.second;
  std::fprintf(stderr, "simmpi: %llu switches to ranks, by the call they were in:\n",
               static_cast<unsigned long long>(total));
  for (const auto& [call, n] : counts)
    std::fprintf(stderr, "simmpi:   %-28s %14llu  %5.1f%%\n", call.c_str(),
                 static_cast<unsigned long long>(n), 100.0 * static_cast<double>(n) / total);
}

int simulate(const LaunchOptions& o, const runtime::Config& config) {
  // Large blocks from the heap rather than one mapping each: 100,000 ranks allocating a buffer
  // apiece would otherwise exhaust the kernel's 65,530 mappings. Fixing the mapping threshold
  // also freezes glibc's trim threshold at 128 KiB (it would otherwise grow with the mapping
  // threshold), so a program that frees and reallocates its large arrays every step (LULESH)
  // would give its heap top back to the kernel and fault it in again each time: 38% more time
  // in its own code than natively. Trim, like glibc's dynamic setting, at twice the threshold.
  constexpr int mapping_threshold = 32 * 1024 * 1024;
  mallopt(M_MMAP_THRESHOLD, mapping_threshold);
  mallopt(M_TRIM_THRESHOLD, 2 * mapping_threshold);
  const RunCpuMeter run_cpu;
  const double wall0 = run_cpu.wall0_s;
  runtime::Engine engine;
  hardware::Platform platform(engine, o.ranks, config,
                              static_cast<int>(config.integer("mpi.spawn_slots")));
  // Every rank there may ever be: the first ones and MPI_Comm_spawn's (mpi.spawn_slots, within
  // the free nodes). The tables below are sized for them all; the spare ones start empty.
  const int slots = o.ranks + platform.spare_processes();
  configure_folding(config, slots);
  runtime::Scheduler::Options so;
  so.stack_bytes = config.size_bytes("runtime.stack_size");
  so.guard_budget = static_cast<std::size_t>(config.integer("runtime.stack_guards"));
  const std::string privatize = config.text("runtime.privatize");
  if (privatize != "none" && runtime::ProgramImage::instance().captured())
    capture_program_libraries(config.text("runtime.privatize_libs"));
  auto privatizer = runtime::make_privatizer(privatize, runtime::ProgramImage::instance(), slots);
  bool private_globals = privatizer->is_private();
  runtime::Scheduler sched(engine, o.ranks, so, std::move(privatizer), slots);
  OwnTimeNote own_note;
  if (auto own = make_own_time(config, platform.compute().cpu().node(), o, own_note))
    sched.measure_own_time(std::move(own));
  if (config.flag("runtime.report_switches")) sched.count_switches_by_call();
  World world(sched, platform, config, o.ranks, slots);
  CommObjects comm_objects(slots, slots);
  InfoObjects info_objects(slots);
  Ports ports;
  Windows windows(config);
  Files files(config, slots);
  MatchedMessages matched_messages(slots);
  RankLives lives(g_user_main, o.app_argv, private_globals, slots);
  RunReports reports(config, platform, o.ranks, slots);
  int job_status = 0;
  Progress progress{engine, {}, config.time("runtime.heartbeat"), config.time("runtime.heartbeat")};
  progress.wall0 = wall0;
  progress.show_after = config.time("report.progress_after").seconds();
  progress.ranks = o.ranks;
  progress.terminal = !o.quiet && isatty(STDERR_FILENO);
  sched.set_exit_hook([&world, &job_status, &progress, &sched](runtime::Process& p) {
    ++progress.ranks_done;
    progress.ranks = sched.process_count();  // spawned ranks included
    on_rank_exit(world, p, job_status);
  });
  sched.set_progress_hook(&Progress::hook, &progress);
  arm_wall_limit(config);
  for (int r = 0; r < o.ranks; ++r) sched.spawn(r, &RankLives::entry, &lives);
  sched.run();
  progress.erase();
  platform.finish();
  if (sched.own_time()) sched.own_time()->finish();
  std::fflush(nullptr);
  if (!o.quiet) {
    print_summary(sched, engine, runtime::host_wall_seconds() - wall0, progress.peak);
    print_own_time_summary(sched, own_note);
    note_uncharged_compute(sched, run_cpu.read(engine));
  }
  if (!reports.finish(sched, !o.quiet) && job_status == 0) job_status = 1;
  if (config.flag("runtime.report_switches")) print_switches(sched);
  sched.privatizer().restore_global();
  return job_status;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi;

extern "C" {

__attribute__((visibility("default"))) void simmpi_program_loaded(
    mpi::UserMain user_main, runtime::InitFunction* init_begin, runtime::InitFunction* init_end,
    void* dso_handle, void* (*program_malloc)(std::size_t)) {
  mpi::g_user_main = user_main;
  mpi::g_malloc_wrapped = program_malloc == &__wrap_malloc;
  runtime::ProgramImage::instance().capture(
      runtime::ProgramHooks{init_begin, init_end, dso_handle});
}

__attribute__((visibility("default"))) int simmpi_main(int argc, char** argv, char**) {
  try {
    const char* env = std::getenv("SIMMPI_LAUNCH_OPTIONS");
    mpi::LaunchOptions o = mpi::parse_launch_options(argc, argv, env);
    if (env) unsetenv("SIMMPI_LAUNCH_OPTIONS");  // the ranks see the environment of a plain run
    if (o.help) {
      std::fputs(mpi::launch_help(argv[0]).c_str(), stdout);
      return 0;
    }
    if (o.help_config) {
      std::fputs(runtime::config_help(o.help_config_markdown).c_str(), stdout);
      return 0;
    }
    runtime::Config config = mpi::load_config(o);
    for (const std::string& w : config.unused_settings())
      std::fprintf(stderr, "simmpi: warning: %s\n", w.c_str());
    if (o.print_config) {
      std::fputs(config.to_toml().c_str(), stdout);
      return 0;
    }
    if (o.print_machine) {
      int nodes = hardware::Platform::configured_nodes(config);
      long long per_node = config.integer("node.ranks_per_node");
      std::printf("nodes=%d ranks_per_node=%lld ranks=%lld\n", nodes, per_node, nodes * per_node);
      return 0;
    }
    return mpi::simulate(o, config);
  } catch (const ConfigError& e) {
    fatal(2, e.what());
  }
}

}  // extern "C"
