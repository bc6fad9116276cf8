// SPDX-License-Identifier: Apache-2.0
#include "libsimmpi/launch/run_reports.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

RunReports::File RunReports::open_output(const runtime::Config& config, const char* key) {
  const std::string path = config.text(key);
  File f(std::fopen(path.c_str(), "w"));
  if (!f)
    throw ConfigError(strprintf("%s = \"%s\" (%s): cannot write it (%s); choose a writable path",
                                key, path.c_str(), config.origin(key).c_str(),
                                std::strerror(errno)));
  return f;
}

RunReports::RunReports(const runtime::Config& config, int ranks) : ranks_(ranks) {
  if (config.flag("report.profile")) {
    profile_file_ = open_output(config, "report.profile_file");
    profile_path_ = config.text("report.profile_file");
    profile_top_ = static_cast<std::size_t>(config.integer("report.profile_top"));
    profile_ = std::make_unique<runtime::Profile>(ranks);
    runtime::Observation::subscribe(profile_.get());
  }
}

RunReports::~RunReports() {
  if (profile_) runtime::Observation::unsubscribe(profile_.get());
}

void RunReports::finish(runtime::Scheduler& sched, bool print) {
  if (profile_) {
    std::vector<runtime::SimTime> ends;
    for (int r = 0; r < ranks_; ++r) ends.push_back(sched.process(r).finish_time());
    profile_->finish(ends);
    const std::string json = profile_->json();
    std::fwrite(json.data(), 1, json.size(), profile_file_.get());
    profile_file_.reset();
    if (print)
      std::fprintf(stderr, "%ssimmpi:   the whole profile: %s\n",
                   profile_->text(profile_top_).c_str(), profile_path_.c_str());
  }
}

}  // namespace simmpi::mpi
