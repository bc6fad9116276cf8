// SPDX-License-Identifier: Apache-2.0
// The spine's benchmark: simulated MPI calls per wall second and memory per rank, next to the
// cost of a bare Boost.Context switch measured in the same run (machines here are noisy, so the
// figures that matter are ratios).
//   spine_bench PINGPONG.sim ALLREDUCE.sim [--quick] [PINGPONG_WITH_N_BYTES_OF_GLOBALS.sim...]
// Prints one parseable line per measurement:
//   bench=fiber_switch ns_per_round_trip=...
//   bench=pingpong ... ratio_to_switch=...
//   bench=allreduce ranks=... calls_per_s=... bytes_per_rank=...
//   bench=privatize method=copy|mmap global_bytes=... ns_per_switch=...
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/context/fiber.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Round trip (resume + yield back) of a boost::context::fiber, the public Boost.Context API.
double fiber_round_trip_ns(long n) {
  namespace ctx = boost::context;
  ctx::fiber f{[](ctx::fiber&& main) {
    for (;;) main = std::move(main).resume();
    return std::move(main);
  }};
  for (long i = 0; i < 1000; ++i) f = std::move(f).resume();  // warm up
  double t0 = now_s();
  for (long i = 0; i < n; ++i) f = std::move(f).resume();
  return (now_s() - t0) / static_cast<double>(n) * 1e9;
}

struct Run {
  std::string out;
  long max_rss_kib = 0;
  int status = 0;
};

// Runs a program, capturing stdout and its peak resident memory.
Run run(const std::vector<std::string>& args) {
  int pipefd[2];
  if (pipe(pipefd) != 0) std::exit(1);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipefd[1]);
  Run r;
  char buf[4096];
  ssize_t k;
  while ((k = read(pipefd[0], buf, sizeof buf)) > 0) r.out.append(buf, static_cast<std::size_t>(k));
  close(pipefd[0]);
  rusage ru{};
  wait4(pid, &r.status, 0, &ru);
  r.max_rss_kib = ru.ru_maxrss;
  return r;
}

double field(const std::string& out, const char* key) {
  std::size_t at = out.find(std::string(key) + "=");
  if (at == std::string::npos) {
    std::fprintf(stderr, "spine_bench: no %s= in program output:\n%s", key, out.c_str());
    std::exit(1);
  }
  return std::atof(out.c_str() + at + std::strlen(key) + 1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: spine_bench PINGPONG.sim ALLREDUCE.sim [--quick] [PINGPONG_G.sim...]\n");
    return 2;
  }
  bool quick = false;
  std::vector<std::string> padded;  // ping-pong variants with larger global segments
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else
      padded.push_back(argv[i]);
  }
  long switches = quick ? 1000000 : 20000000;
  double switch_ns = fiber_round_trip_ns(switches);
  std::printf("bench=fiber_switch round_trips=%ld ns_per_round_trip=%.1f\n", switches, switch_ns);

  long trips = quick ? 200000 : 2000000;
  Run pp = run({argv[1], "-n", "2", "--quiet", std::to_string(trips)});
  double pp_ns = field(pp.out, "wall_s") / static_cast<double>(trips) * 1e9;
  // A round trip is four MPI calls (two sends, two receives) and four fiber switches.
  std::printf(
      "bench=pingpong bytes=8 round_trips=%ld ns_per_round_trip=%.1f mpi_calls_per_s=%.3g "
      "ratio_to_switch=%.1f\n",
      trips, pp_ns, 4e9 / pp_ns, pp_ns / switch_ns);

  Run base = run({argv[2], "-n", "1", "--quiet", "1"});
  for (int ranks : {1024, 16384}) {
    long iterations = quick ? (ranks > 2000 ? 5 : 50) : (ranks > 2000 ? 50 : 500);
    Run ar = run({argv[2], "-n", std::to_string(ranks), "--quiet", std::to_string(iterations)});
    double wall = field(ar.out, "wall_s");
    double calls = static_cast<double>(ranks) * static_cast<double>(iterations);
    double per_rank = static_cast<double>(ar.max_rss_kib - base.max_rss_kib) * 1024.0 / ranks;
    std::printf(
        "bench=allreduce doubles=8 ranks=%d iterations=%ld mpi_calls_per_s=%.3g "
        "ns_per_call=%.1f ratio_to_switch=%.1f bytes_per_rank=%.0f result_ok=%d\n",
        ranks, iterations, calls / wall, wall / calls * 1e9, wall / calls * 1e9 / switch_ns,
        per_rank, static_cast<int>(field(ar.out, "result_ok")));
  }
  // Privatization: the same ping-pong with larger global segments, under both methods. Each
  // round trip switches rank twice (0 -> 1 -> 0), so the extra cost per switch is half the
  // difference from the plain ping-pong.
  long ptrips = quick ? 20000 : 200000;
  for (const std::string& prog : padded) {
    for (const char* method : {"copy", "mmap"}) {
      Run r = run({prog, "-n", "2", "--quiet", "--set", std::string("runtime.privatize=") + method,
                   std::to_string(ptrips)});
      double ns = field(r.out, "wall_s") / static_cast<double>(ptrips) * 1e9;
      std::printf(
          "bench=privatize method=%s program=%s ns_per_round_trip=%.1f "
          "extra_ns_per_switch=%.1f\n",
          method, prog.substr(prog.rfind('/') + 1).c_str(), ns, (ns - pp_ns) / 2);
    }
  }
  return 0;
}
