// SPDX-License-Identifier: Apache-2.0
// What a process's own code costs in simulated time (runtime.host_time = measure): each burst
// between library calls is measured on the host (BurstClock) or, when replaying a compute
// profile, taken from it; recorded when asked; and translated to the simulated CPU by `scale`
// (simulated seconds per host second, from hardware::HostTranslation or the user).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/core/sim_time.hpp"
#include "runtime/host_time/burst_clock.hpp"
#include "runtime/host_time/compute_profile.hpp"

namespace simmpi::runtime {

class OwnTime {
 public:
  struct Options {
    double scale = 1;                        // simulated s per host s
    double tsc_hz = 0;                       // for the burst clock
    std::unique_ptr<ComputeProfile> replay;  // bursts to charge instead of measuring
    std::string replay_path;                 // named in divergence reports
    std::unique_ptr<ComputeProfile> record;  // filled with the bursts, written by finish()
    std::string record_path;
  };
  // A process's state.
  struct State {
    BurstMarks marks;
    std::int64_t extra_ns = 0;  // host time added to the burst (OpenMP regions)
    std::size_t bursts = 0;     // ended so far
    std::int64_t host_ns = 0;   // their host time
    SimTime charged;            // and what they cost
    int stream = -1;            // its index in the replayed or recorded profile
  };

  explicit OwnTime(Options options);

  double scale() const { return scale_; }
  bool replaying() const { return replay_ != nullptr; }
  const std::string& replay_path() const { return replay_path_; }

  // A stretch of own code starts (a library call returns, a program thread starts).
  void start(State& s) { clock_.start(s.marks); }
  // Stops measuring without ending the burst; start() goes on, and add_host_ns() adds what the
  // paused stretch costs instead.
  void pause(State& s) { clock_.pause(s.marks); }
  void add_host_ns(State& s, std::int64_t ns) { s.extra_ns += ns; }
  // The burst ends at library call `call`: what it costs in simulated time. Process (owner,
  // ordinal) is a rank (ordinal 0) or one of its program threads. Ends the run with a message
  // naming the file, process and burst when a replayed profile diverges from the run.
  SimTime end_burst(State& s, const char* call, int owner, int ordinal);
  // At the end of the run: writes the recorded profile; ends the run with a divergence report
  // when a replayed stream was not used up (the run made fewer library calls).
  void finish();

 private:
  [[noreturn]] void diverged(int owner, int ordinal, const std::string& what) const;
  std::int64_t next_replayed(State& s, const char* call, int owner, int ordinal);
  int stream_index(const ComputeProfile& p, int owner, int ordinal);

  double scale_;
  BurstClock clock_;
  std::unique_ptr<ComputeProfile> replay_, record_;
  std::string replay_path_, record_path_;
  std::unordered_map<std::uint64_t, int> record_streams_;  // (owner, ordinal) -> index
  std::vector<std::size_t> replayed_;                      // bursts taken from each replayed stream
};

}  // namespace simmpi::runtime
