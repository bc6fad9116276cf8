// SPDX-License-Identifier: Apache-2.0
#include "libsimmpi/launch/run_reports.hpp"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "libsimmpi/launch/install_prefix.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

const char* const kLinksGroup = "network (busiest links)";  // the link tracks' row in timelines

}  // namespace

RunReports::File RunReports::open_output(const runtime::Config& config, const char* key,
                                         const std::string& path) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f)
    throw ConfigError(strprintf("%s = \"%s\" (%s): cannot write it (%s); choose a writable path",
                                key, path.c_str(), config.origin(key).c_str(),
                                std::strerror(errno)));
  return f;
}

RunReports::RunReports(const runtime::Config& config, const hardware::Platform& platform, int ranks,
                       int slots)
    : ranks_(ranks),
      platform_(platform),
      profile_top_(static_cast<std::size_t>(config.integer("report.profile_top"))) {
  if (config.flag("report.profile")) {
    profile_path_ = config.path("report.profile_file");
    profile_file_ = open_output(config, "report.profile_file", profile_path_);
    profile_ = std::make_unique<runtime::Profile>(slots);
    runtime::Observation::subscribe(profile_.get());
  }
  if (config.flag("report.critical_path")) {
    critical_path_path_ = config.path("report.critical_path_file");
    critical_path_file_ = open_output(config, "report.critical_path_file", critical_path_path_);
    critical_path_ = std::make_unique<runtime::CriticalPath>(slots);
    runtime::Observation::subscribe(critical_path_.get());
  }
  if (config.flag("report.html")) {
    html_path_ = config.path("report.html_file");
    profile_input_ = config.path("report.profile_file");
    critical_path_input_ = config.path("report.critical_path_file");
    net_prefix_ = config.path("network.stats_prefix");
    open_output(config, "report.html_file", html_path_);  // unwritable: said before the run
  }
  record_path_ = config.path("report.record");
  if (!record_path_.empty()) {
    recorder_ = std::make_unique<runtime::CallTraceRecorder>(record_path_, "report.record", ranks);
    runtime::Observation::subscribe(recorder_.get());
    // The platform it ran on, which simmpi-replay takes by default.
    File platform_file = open_output(config, "report.record", record_path_ + "/platform.toml");
    const std::string toml = config.to_toml();
    std::fwrite(toml.data(), 1, toml.size(), platform_file.get());
  }
  const std::string timeline = config.text("report.timeline");
  if (timeline != "none") {
    runtime::TimelineScope scope(config.text("report.timeline_ranks"),
                                 config.text("report.timeline_window"), ranks,
                                 "report.timeline_ranks", "report.timeline_window");
    scope.limit_events(static_cast<std::uint64_t>(config.integer("report.timeline_max_events")));
    scope.limit_own_code(config.time("report.timeline_min_own_code"));
    std::vector<int> node_of_rank;
    for (int r = 0; r < ranks; ++r) node_of_rank.push_back(platform.node_of(r));
    timeline_path_ = config.path("report.timeline_file");
    if (timeline == "chrome") {
      if (timeline_path_.empty()) timeline_path_ = config.resolve_path("simmpi_timeline.json.gz");
      timeline_ = std::make_unique<runtime::ChromeTrace>(timeline_path_, "report.timeline_file",
                                                         std::move(node_of_rank), std::move(scope));
      observe_timeline(config, *timeline_);
    } else {
      if (timeline_path_.empty()) timeline_path_ = config.resolve_path("simmpi_timeline");
      otf2_ = std::make_unique<runtime::Otf2Trace>(timeline_path_, "report.timeline_file",
                                                   std::move(node_of_rank), std::move(scope));
      observe_timeline(config, *otf2_);
    }
  }
}

void RunReports::observe_timeline(const runtime::Config& config, runtime::Observer& writer) {
  timeline_observer_ = &writer;
  if (config.flag("report.timeline_thread") && runtime::ObserverThread::host_has_spare_cpu()) {
    timeline_thread_ = std::make_unique<runtime::ObserverThread>(writer);
    timeline_observer_ = timeline_thread_.get();
  }
  runtime::Observation::subscribe(timeline_observer_);
}

RunReports::~RunReports() {
  if (profile_) runtime::Observation::unsubscribe(profile_.get());
  if (timeline_observer_) runtime::Observation::unsubscribe(timeline_observer_);
  timeline_thread_.reset();  // before the writer it tells
  if (critical_path_) runtime::Observation::unsubscribe(critical_path_.get());
  if (recorder_) runtime::Observation::unsubscribe(recorder_.get());
}

bool RunReports::finish(runtime::Scheduler& sched, bool print) {
  bool ok = true;
  // The profile and the critical path count spawned ranks; the timelines and the record, whose
  // formats fix the ranks up front, show the first ones.
  std::vector<runtime::SimTime> all_ends, starts;
  for (int r = 0; r < sched.process_count(); ++r) {
    all_ends.push_back(sched.process(r).finish_time());
    starts.push_back(sched.process(r).start_time());
  }
  const std::vector<runtime::SimTime> ends(all_ends.begin(), all_ends.begin() + ranks_);
  // The busiest links' load as counter tracks beside the nodes, when network.stats records it.
  std::vector<runtime::CounterTrack> links;
  if (timeline_thread_) {
    runtime::Observation::unsubscribe(timeline_observer_);
    timeline_observer_ = nullptr;
    timeline_thread_->stop();  // the writer has been told everything, and is this thread's again
    timeline_thread_.reset();
  }
  if (timeline_ || otf2_) {
    runtime::SimTime last;
    for (runtime::SimTime e : ends) last = runtime::max(last, e);
    for (hardware::LinkSeries& l : platform_.busiest_link_load(last))
      links.push_back({"link " + l.name, l.bin, std::move(l.utilization)});
  }
  if (timeline_) {
    timeline_->counters(kLinksGroup, links);
    std::string error;
    const std::int64_t events = timeline_->finish(ends, &error);
    struct stat st;
    const double mib = ::stat(timeline_path_.c_str(), &st) == 0
                           ? static_cast<double>(st.st_size) / (1 << 20)
                           : 0.0;
    if (events < 0) {
      ok = false;
      std::fprintf(stderr, "simmpi: error: the timeline %s could not be written completely (%s)\n",
                   timeline_path_.c_str(), error.c_str());
    } else if (print) {
      std::fprintf(stderr,
                   "simmpi: timeline: %s, %lld events, %.1f MiB (open it in "
                   "ui.perfetto.dev or chrome://tracing)\n",
                   timeline_path_.c_str(), static_cast<long long>(events), mib);
    }
  }
  if (otf2_) {
    otf2_->counters(kLinksGroup, links);
    std::string error;
    const std::int64_t events = otf2_->finish(ends, &error);
    if (events < 0) {
      ok = false;
      std::fprintf(stderr, "simmpi: error: the OTF2 archive %s could not be written: %s\n",
                   timeline_path_.c_str(), error.c_str());
    } else if (print) {
      std::fprintf(stderr,
                   "simmpi: timeline: %s/traces.otf2, %lld events (open it in Vampir, or "
                   "otf2-print it)\n",
                   timeline_path_.c_str(), static_cast<long long>(events));
    }
  }
  if (recorder_ && !finish_record(ends, print)) ok = false;
  if (profile_) {
    profile_->finish(all_ends, starts);
    const std::string json = profile_->json();
    std::fwrite(json.data(), 1, json.size(), profile_file_.get());
    profile_file_.reset();
    if (print)
      std::fprintf(stderr, "%ssimmpi:   the whole profile: %s\n",
                   profile_->text(profile_top_).c_str(), profile_path_.c_str());
  }
  if (critical_path_) {
    std::vector<runtime::CriticalPath::Stretch> path = critical_path_->walk(all_ends);
    runtime::CriticalPath::explain_network(path, [this](const runtime::CriticalPath::Stretch& s) {
      return runtime::CriticalPath::Explained{
          platform_.latency(s.from_rank, s.rank),
          platform_.alone_transfer(s.from_rank, s.rank, s.bytes),
          platform_.busiest_link(s.from_rank, s.rank, s.begin, s.end)};
    });
    const std::string json = runtime::CriticalPath::json(path);
    std::fwrite(json.data(), 1, json.size(), critical_path_file_.get());
    critical_path_file_.reset();
    if (print)
      std::fprintf(stderr, "%ssimmpi:   the whole path: %s\n",
                   runtime::CriticalPath::text(path, profile_top_).c_str(),
                   critical_path_path_.c_str());
  }
  if (!html_path_.empty() && !make_html(print)) ok = false;
  return ok;
}

namespace {

// simmpi-report beside this library's installation: <prefix>/bin.
std::string report_tool() {
  const std::string prefix = install_prefix();
  const std::string tool = prefix + "/bin/simmpi-report";
  return !prefix.empty() && ::access(tool.c_str(), X_OK) == 0 ? tool : "";
}

}  // namespace

bool RunReports::make_html(bool print) const {
  const std::string tool = report_tool();
  if (tool.empty()) {
    std::fprintf(stderr,
                 "simmpi: error: report.html: simmpi-report was not found beside libsimmpi "
                 "(<prefix>/bin); the run's files are written, make the page with simmpi-report\n");
    return false;
  }
  std::string dir = html_path_.substr(0, html_path_.rfind('/') + 1);
  std::vector<std::string> args = {tool,
                                   dir.empty() ? "." : dir,
                                   "--out=" + html_path_,
                                   "--profile=" + profile_input_,
                                   "--critical-path=" + critical_path_input_,
                                   "--net-prefix=" + net_prefix_};
  if (timeline_) args.push_back("--timeline=" + timeline_path_);  // a Chrome timeline: drawn too
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = 0;
  if (posix_spawn(&pid, tool.c_str(), nullptr, nullptr, argv.data(), environ) != 0 ||
      waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "simmpi: error: report.html: %s failed; the run's files are written\n",
                 tool.c_str());
    return false;
  }
  if (print) std::fprintf(stderr, "simmpi: report: %s\n", html_path_.c_str());
  return true;
}

bool RunReports::finish_record(const std::vector<runtime::SimTime>& ends, bool print) {
  std::string error;
  if (!recorder_->finish(ends, &error)) {
    std::fprintf(stderr, "simmpi: error: the call trace %s could not be written: %s\n",
                 record_path_.c_str(), error.c_str());
    return false;
  }
  if (print)
    std::fprintf(stderr, "simmpi: call trace: %s, %llu records, %.1f MiB (simmpi-replay %s)\n",
                 record_path_.c_str(), static_cast<unsigned long long>(recorder_->records()),
                 static_cast<double>(recorder_->bytes_written()) / 1048576.0, record_path_.c_str());
  if (!recorder_->unreplayable().empty()) {
    std::string calls;
    for (const std::string& c : recorder_->unreplayable()) calls += (calls.empty() ? "" : ", ") + c;
    std::fprintf(stderr,
                 "simmpi: warning: the call trace %s holds calls simmpi-replay cannot make "
                 "(not implemented): %s\n",
                 record_path_.c_str(), calls.c_str());
  }
  return true;
}

}  // namespace simmpi::mpi
