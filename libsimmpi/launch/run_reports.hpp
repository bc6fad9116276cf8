// SPDX-License-Identifier: Apache-2.0
// The reports a run gives at its end besides the summary (report.* keys): they subscribe to the
// observation stream before the ranks start, with their output files opened then, so a path
// that cannot be written stops the run before it begins, and are written when the run ends.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "hardware/platform.hpp"
#include "runtime/config/config.hpp"
#include "runtime/observe/call_trace_recorder.hpp"
#include "runtime/observe/chrome_trace.hpp"
#include "runtime/observe/critical_path.hpp"
#include "runtime/observe/observer_thread.hpp"
#include "runtime/observe/otf2_trace.hpp"
#include "runtime/observe/profile.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::mpi {

class RunReports {
 public:
  // Throws ConfigError naming the key when an output file cannot be opened.
  // `ranks` start the run; `slots` counts MPI_Comm_spawn's possible ones too.
  RunReports(const runtime::Config& config, const hardware::Platform& platform, int ranks,
             int slots);
  ~RunReports();
  RunReports(const RunReports&) = delete;
  RunReports& operator=(const RunReports&) = delete;

  // After the run: writes the files; with `print`, the summaries go to stderr too. False when a
  // file could not be written completely (said on stderr).
  bool finish(runtime::Scheduler& sched, bool print);

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  using File = std::unique_ptr<std::FILE, FileCloser>;
  // Runs simmpi-report on what the run wrote (report.html); false when it failed.
  bool make_html(bool print) const;
  // `path` for `key`, opened for writing; throws ConfigError naming both when it cannot be.
  static File open_output(const runtime::Config& config, const char* key, const std::string& path);
  bool finish_record(const std::vector<runtime::SimTime>& ends, bool print);
  // Subscribes the timeline's `writer`, on a thread of its own when report.timeline_thread says
  // so and the host has a CPU to spare.
  void observe_timeline(const runtime::Config& config, runtime::Observer& writer);

  int ranks_;
  const hardware::Platform& platform_;  // explains the critical path's network stretches
  std::unique_ptr<runtime::Profile> profile_;
  File profile_file_;
  std::string profile_path_;
  std::size_t profile_top_ = 0;
  std::unique_ptr<runtime::CriticalPath> critical_path_;
  File critical_path_file_;
  std::string critical_path_path_;
  std::unique_ptr<runtime::ChromeTrace> timeline_;
  std::unique_ptr<runtime::Otf2Trace> otf2_;
  std::string timeline_path_;
  // What the observation stream tells of the timeline: the writer, or the thread that tells it.
  runtime::Observer* timeline_observer_ = nullptr;
  std::unique_ptr<runtime::ObserverThread> timeline_thread_;  // declared after what it tells
  // report.html: the page and what it is made of.
  std::string html_path_;
  std::string critical_path_input_, profile_input_, net_prefix_;
  std::unique_ptr<runtime::CallTraceRecorder> recorder_;
  std::string record_path_;
};

}  // namespace simmpi::mpi
