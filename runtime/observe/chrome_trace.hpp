// SPDX-License-Identifier: Apache-2.0
// The run as a Chrome trace-event JSON file (report.timeline = chrome), which ui.perfetto.dev
// and chrome://tracing open: nodes are processes, ranks (and their program threads) threads; MPI
// calls and the own code between them are slices, with the call's peer, tag, bytes and
// communicator; each point-to-point message is a flow arrow from the call that sent it to the
// call that completed its receive. Written as the run goes, so memory stays flat; limited to a
// TimelineScope.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/observe/observation.hpp"
#include "runtime/observe/timeline_scope.hpp"

namespace simmpi::runtime {

class ChromeTrace : public Observer {
 public:
  // `out` stays the caller's; `node_of_rank` places each rank.
  ChromeTrace(std::FILE* out, std::vector<int> node_of_rank, TimelineScope scope);
  void call(const CallFacts& f) override;
  // After the run: each shown process's own code after its last call, until `end[process]`
  // (indexed by process id), and the end of the file. Returns the number of events written.
  std::uint64_t finish(const std::vector<SimTime>& end);

 private:
  struct Lane {  // one process's row
    bool named = false;
    int rank = 0, ordinal = 0;
    SimTime last_end;  // the end of its last call
  };
  Lane& lane(int process, int rank, int ordinal);
  void own_code(int process, const Lane& l, SimTime begin, SimTime end);
  void event(const std::string& json);

  std::FILE* out_;
  std::vector<int> node_of_rank_;
  TimelineScope scope_;
  std::vector<Lane> lanes_;  // by process id
  std::vector<bool> node_named_;
  std::uint64_t events_ = 0;
};

}  // namespace simmpi::runtime
