// SPDX-License-Identifier: Apache-2.0
// The run as a Chrome trace-event JSON file (report.timeline = chrome), which ui.perfetto.dev
// and chrome://tracing open: nodes are processes, ranks (and their program threads) threads; MPI
// calls and the own code between them are slices, with the call's peer, tag, bytes and
// communicator; each point-to-point message is a flow arrow from the call that sent it to the
// call that completed its receive. Written as the run goes, so memory stays flat; limited to a
// TimelineScope.
#pragma once

#include <string>
#include <vector>

#include "runtime/observe/counter_track.hpp"
#include "runtime/observe/observation.hpp"
#include "runtime/observe/text_output.hpp"
#include "runtime/observe/timeline_scope.hpp"

namespace simmpi::runtime {

class ChromeTrace : public Observer {
 public:
  // Opens `path` (gzip-compressed when it ends in .gz, which both viewers open); throws
  // ConfigError naming `key` when it cannot. `node_of_rank` places each rank.
  ChromeTrace(const std::string& path, const char* key, std::vector<int> node_of_rank,
              TimelineScope scope);
  void call(const CallFacts& f) override;
  bool wants_messages() const override { return true; }
  // After the run, before finish: `tracks` as one process named `group`, after every node, a
  // counter track each.
  void counters(const std::string& group, const std::vector<CounterTrack>& tracks);
  // After the run: each shown process's own code after its last call, until `end[process]`
  // (indexed by process id), and the end of the file, closed. Returns the number of events
  // written, or -1 (with `error` set) when the file could not be written completely.
  std::int64_t finish(const std::vector<SimTime>& end, std::string* error);

 private:
  struct Lane {  // one process's row
    bool named = false;
    int rank = 0, ordinal = 0;
    SimTime last_end;  // the end of its last call
    // The text every event of the lane repeats, made once: ',"pid":P,"tid":T,"ts":' and, for
    // each call name seen (a string literal, so its address names it), the slice's head
    // '{"ph":"X","cat":"MPI","name":NAME,"pid":P,"tid":T,"ts":'.
    std::string where;
    std::vector<std::pair<const char*, std::string>> heads;
  };
  Lane& lane(int process, int rank, int ordinal);
  void own_code(Lane& l, SimTime begin, SimTime end);
  void begin_event();  // the separator from the event before
  // A metadata event: `arg` of `what` is `value_json`; `tid` -1: the process's.
  void metadata(const char* what, int pid, int tid, const char* arg, const std::string& value_json);
  // Writes a slice's fields up to its duration: `head` (see Lane), its begin and its duration.
  void slice_head(const std::string& head, SimTime begin, SimTime end);
  const std::string& head_of(Lane& l, const char* cat, const char* name);

  TextOutput out_;
  std::vector<int> node_of_rank_;
  TimelineScope scope_;
  std::vector<Lane> lanes_;  // by process id
  std::vector<bool> node_named_;
  std::uint64_t events_ = 0;
  std::string comm_name_, comm_json_;  // the last communicator name and its JSON text
};

}  // namespace simmpi::runtime
