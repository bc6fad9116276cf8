// SPDX-License-Identifier: Apache-2.0
// The run as an OTF2 archive (report.timeline = otf2) through Debian's OTF2 library, for Vampir
// and the Score-P tools (otf2-print reads it too): the machine's nodes as system-tree nodes, each
// rank a process (location group) whose threads are locations; MPI calls and the own code
// between them as regions entered and left; point-to-point messages as MpiSend/MpiRecv,
// collectives on MPI_COMM_WORLD as MpiCollectiveBegin/End; counter tracks (the busiest links'
// utilization) as metrics, a metric location each in a location group of their own. Timestamps are
// simulated picoseconds (timer resolution 10^12). Events are written as the run goes (the library
// buffers them per location); definitions at the end. Limited to a TimelineScope.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/observe/counter_track.hpp"
#include "runtime/observe/observation.hpp"
#include "runtime/observe/timeline_scope.hpp"

struct OTF2_Archive_struct;
struct OTF2_EvtWriter_struct;

namespace simmpi::runtime {

class Otf2Trace : public Observer {
 public:
  // Creates the archive `directory`/traces.otf2. Throws ConfigError naming `key` when the
  // directory exists (an archive is never written over) or cannot be made.
  Otf2Trace(const std::string& directory, const char* key, std::vector<int> node_of_rank,
            TimelineScope scope);
  ~Otf2Trace() override;
  void call(const CallFacts& f) override;
  bool wants_messages() const override { return true; }
  // After the run, before finish: `tracks` as metrics (one member and class each, values valid
  // until the next one) on a metric location each, in a location group named `group`.
  void counters(const std::string& group, const std::vector<CounterTrack>& tracks) {
    counter_group_ = group;
    counters_ = tracks;
  }
  // After the run: the own code after each shown rank's last call, until `end[rank]`, then the
  // definitions; closes the archive. Returns the number of events, or -1 (with `error` set) when
  // the library reported a failure.
  std::int64_t finish(const std::vector<SimTime>& end, std::string* error);

 private:
  struct Lane {
    OTF2_EvtWriter_struct* writer = nullptr;
    int rank = 0, ordinal = 0;
    SimTime last_end;
  };
  Lane& lane(int rank, int ordinal);
  std::uint32_t string_id(const std::string& s);
  std::uint32_t region_id(const char* name);
  // A call's region and OTF2 collective operation (-1: none), found by the address of its name
  // (a string literal) after the first time: a ping-pong spent a quarter of its tracing in
  // looking up the name and comparing it with every collective's.
  struct Region {
    std::uint32_t id;
    int collective_op;
  };
  const Region& region_of(const char* name);
  void own_code(Lane& l, SimTime begin, SimTime end);
  void check(int status, const char* what);
  std::int64_t write_counter_events();  // before the event files close; how many

  OTF2_Archive_struct* archive_ = nullptr;
  std::vector<int> node_of_rank_;
  TimelineScope scope_;
  std::map<std::uint64_t, Lane> lanes_;  // by location id
  std::map<std::string, std::uint32_t> strings_;
  std::vector<std::string> string_order_;
  std::map<std::string, std::uint32_t> regions_;
  std::vector<std::string> region_order_;
  std::unordered_map<const char*, Region> region_by_address_;
  std::string counter_group_;
  std::vector<CounterTrack> counters_;
  SimTime latest_;
  std::uint64_t events_ = 0;  // for the size limit: those written, or about (a call's messages)
  std::string error_;         // the first failure the library reported
};

}  // namespace simmpi::runtime
