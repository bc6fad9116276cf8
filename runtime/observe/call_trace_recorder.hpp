// SPDX-License-Identifier: Apache-2.0
// Records the run as a call trace (report.record) for simmpi-replay: each rank's MPI calls as
// the MPI layer describes them (CallFacts::record) and its compute between calls: modeled tasks
// as operations and bytes, SIMMPI_SLEEP and measured own code as durations. The own code's time
// is what remains of the gap between two calls once the told compute is taken out. Streamed:
// each rank's records go to its file in zstd-compressed chunks (call_trace_format.hpp), so
// memory stays at one chunk per rank.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "runtime/observe/observation.hpp"

struct ZSTD_CCtx_s;

namespace simmpi::runtime {

class CallTraceRecorder : public Observer {
 public:
  // Creates `directory` and its meta file. Throws ConfigError naming `key` when the directory
  // exists (a trace is never written over) or cannot be made.
  CallTraceRecorder(const std::string& directory, const char* key, int ranks);
  ~CallTraceRecorder() override;
  CallTraceRecorder(const CallTraceRecorder&) = delete;
  CallTraceRecorder& operator=(const CallTraceRecorder&) = delete;

  void call(const CallFacts& f) override;
  void compute(const ComputeFacts& f) override;
  bool wants_records() const override { return true; }

  // After the run: the own code after each rank's last call until `end[rank]`, the End records,
  // the last chunks. Returns false with `error` set when a file could not be written.
  bool finish(const std::vector<SimTime>& end, std::string* error);
  // Calls the trace holds that simmpi-replay cannot make (neither recorded nor local).
  const std::set<std::string>& unreplayable() const { return unreplayable_; }
  std::uint64_t records() const { return records_; }
  std::uint64_t bytes_written() const { return bytes_written_; }

 private:
  struct Lane {
    std::string pending;    // encoded records not yet compressed
    SimTime last_end;       // end of the last call
    SimTime told;           // compute told since then
    bool started = false;   // its file has its header
    std::set<int> kernels;  // kernel ids its file names
  };
  void own_code(int rank, SimTime until);
  void begin_record(int rank, int kind);
  void flush(int rank);
  void write_file(int rank, const std::string& bytes);

  std::string directory_;
  int ranks_;
  std::vector<Lane> lanes_;
  ZSTD_CCtx_s* cctx_ = nullptr;
  std::string compressed_;
  std::set<std::string> unreplayable_;
  std::uint64_t records_ = 0, bytes_written_ = 0;
  std::string error_;
};

}  // namespace simmpi::runtime
