// SPDX-License-Identifier: Apache-2.0
// Reads one rank's call trace (runtime/observe/call_trace_format.hpp) record by record, one
// decompressed chunk in memory at a time. Every defect (a missing or foreign file, another
// version or rank count, a truncated chunk, a corrupt frame, an unknown record kind, fields
// that run past their chunk) is a TraceError whose text names the file, the rank and the record.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/observe/call_trace_format.hpp"

struct ZSTD_DCtx_s;

namespace simmpi::replay {

class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Record {
  // A persistent collective's record has its collective's kind, and `persistent` set.
  runtime::call_trace::Kind kind = runtime::call_trace::Kind::End;
  bool persistent = false;
  std::uint64_t number = 0;          // from 1, in its rank's file
  std::vector<std::int64_t> fields;  // arrays as their length, then their elements
  std::string text;                  // the string field, if the layout has one
};

// A record's fields in their layout's order.
class Fields {
 public:
  explicit Fields(const Record& r) : v_(r.fields) {}
  std::int64_t next() { return v_.at(i_++); }
  int i() { return static_cast<int>(next()); }
  double real() { return runtime::call_trace::bits_double(next()); }
  std::vector<int> array() {
    std::vector<int> a(static_cast<std::size_t>(next()));
    for (int& x : a) x = i();
    return a;
  }

 private:
  const std::vector<std::int64_t>& v_;
  std::size_t i_ = 0;
};

class TraceReader {
 public:
  // Opens `directory`'s file of `rank` and checks its header against `ranks`.
  TraceReader(std::string directory, int rank, int ranks);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  // The next record into `r`; false after the End record.
  bool next(Record& r);
  // "DIR/rank-3.simtrace: rank 3, record 17 (MPI_Wait)": where the last record came from.
  std::string where() const;
  [[noreturn]] void fail(const std::string& what) const;

 private:
  bool load_chunk();
  std::uint64_t varint();

  std::string path_;
  int rank_;
  long offset_ = 0;  // of the next chunk in the file
  std::string chunk_;
  std::size_t pos_ = 0;
  std::string compressed_;
  ZSTD_DCtx_s* dctx_ = nullptr;
  std::uint64_t number_ = 0;
  const char* kind_name_ = nullptr;
  std::uint32_t version_ = 0;
  std::uint64_t kinds_ = 0;  // the kinds its version may hold
};

}  // namespace simmpi::replay
