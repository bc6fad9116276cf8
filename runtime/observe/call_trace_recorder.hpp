// SPDX-License-Identifier: Apache-2.0
// Records the run as a call trace (report.record) for simmpi-replay: each rank's MPI calls as
// the MPI layer describes them (CallFacts::record) and its compute between calls: modeled tasks
// as operations and bytes, SIMMPI_SLEEP and measured own code as durations. The own code's time
// is what remains of the gap between two calls once the told compute is taken out. Written as
// the run goes by a CallTraceWriter. Consecutive MPI_Iprobe calls of one target with nothing
// between them (a polling loop) are folded into one IprobeLoop record: the replay then polls
// until the message is there, on the replay's platform, instead of the recorded number of times.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "runtime/observe/call_trace_writer.hpp"
#include "runtime/observe/observation.hpp"

namespace simmpi::runtime {

class CallTraceRecorder : public Observer {
 public:
  // Creates `directory` (see CallTraceWriter; throws ConfigError naming `key`).
  CallTraceRecorder(const std::string& directory, const char* key, int ranks);

  void call(const CallFacts& f) override;
  void compute(const ComputeFacts& f) override;
  bool wants_records() const override { return true; }

  // After the run: the own code after each rank's last call until `end[rank]`, the End records,
  // the last chunks. Returns false with `error` set when a file could not be written.
  bool finish(const std::vector<SimTime>& end, std::string* error);
  // Calls the trace holds that simmpi-replay cannot make (neither recorded nor local).
  const std::set<std::string>& unreplayable() const { return unreplayable_; }
  std::uint64_t records() const { return writer_.records(); }
  std::uint64_t bytes_written() const { return writer_.bytes_written(); }

 private:
  // Fruitless MPI_Iprobe calls of one target, back to back, not written yet.
  struct HeldPolls {
    std::int64_t source = 0, tag = 0, comm = 0;
    std::int64_t failed = 0;  // 0: none held
  };
  struct Lane {
    SimTime last_end;       // end of the last call
    SimTime told;           // compute told since then
    std::set<int> kernels;  // kernel ids its file names
    HeldPolls polls;
  };
  void own_code(int rank, SimTime until);
  void untraced(int rank, std::string_view what);
  // Folds an MPI_Iprobe call into the rank's held polls; false when it is not one to fold.
  bool fold_poll(const CallFacts& f);
  // Writes the held polls, if any: an IprobeLoop record (`found`: the call `f` ends the loop).
  void write_polls(int rank, bool found = false);
  // Writes the whole records a call's facts carry after its own (CallFacts::records_after).
  void write_after(int rank, const std::vector<std::int64_t>& records);

  CallTraceWriter writer_;
  std::vector<Lane> lanes_;
  std::set<std::string> unreplayable_;
};

}  // namespace simmpi::runtime
