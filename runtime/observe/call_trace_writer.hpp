// SPDX-License-Identifier: Apache-2.0
// Writes a call trace (call_trace_format.hpp): a directory with its description and one file per
// rank, each rank's records appended as they come and streamed to its file in zstd-compressed
// chunks, so memory stays at one chunk per rank. Used by the recorder of a run
// (CallTraceRecorder) and by the OTF2 converter (tools/replay).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/observe/call_trace_format.hpp"

struct ZSTD_CCtx_s;

namespace simmpi::runtime {

class CallTraceWriter {
 public:
  // Creates `directory` and its description. Throws ConfigError naming `key` when the directory
  // exists (a trace is never written over) or cannot be made.
  CallTraceWriter(const std::string& directory, const char* key, int ranks);
  ~CallTraceWriter();
  CallTraceWriter(const CallTraceWriter&) = delete;
  CallTraceWriter& operator=(const CallTraceWriter&) = delete;

  const std::string& directory() const { return directory_; }
  int ranks() const { return static_cast<int>(pending_.size()); }
  // A record of `rank`: its kind, then its fields in its layout's order.
  void begin(int rank, call_trace::Kind kind);
  void field(int rank, std::int64_t v) { call_trace::put_int(pending_[slot(rank)], v); }
  void text(int rank, std::string_view s);
  // Every rank's End record and last chunk. False with `error` set when a file could not be
  // written (the first failure).
  bool finish(std::string* error);
  std::uint64_t records() const { return records_; }
  std::uint64_t bytes_written() const { return bytes_written_; }

 private:
  std::size_t slot(int rank) const { return static_cast<std::size_t>(rank); }
  void flush(int rank);

  std::string directory_;
  std::vector<std::string> pending_;  // per rank: encoded records not yet compressed
  std::vector<bool> started_;         // per rank: its file has its header
  ZSTD_CCtx_s* cctx_ = nullptr;
  std::string compressed_;
  std::uint64_t records_ = 0, bytes_written_ = 0;
  std::string error_;
};

}  // namespace simmpi::runtime
