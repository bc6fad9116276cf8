// SPDX-License-Identifier: Apache-2.0
// How an MPI call describes itself for the call trace (report.record): a CallRecord made after
// the call's ApiCall collects the fields of its record kind (call_trace_format.hpp): inputs as
// the call is given them, outputs (a request made, a flag, the source a receive matched) read
// through pointers when the record ends, just before the call's observers are told. Costs one
// branch per field when no one records.
#pragma once

#include <cstdint>
#include <vector>

#include "libsimmpi/core/api_call.hpp"
#include "runtime/observe/call_trace_format.hpp"

namespace simmpi::mpi {

class CallRecord {
 public:
  CallRecord(ApiCall& call, runtime::call_trace::Kind kind)
      : call_(call), kind_(kind), active_(call.records_calls()) {}
  ~CallRecord();
  CallRecord(const CallRecord&) = delete;
  CallRecord& operator=(const CallRecord&) = delete;

  CallRecord& value(std::int64_t v) {
    if (active_) fields_.push_back(v);
    return *this;
  }
  CallRecord& real(double v) { return value(runtime::call_trace::double_bits(v)); }
  // A datatype as the trace keeps it: its predefined handle, or -1 - size for a derived one.
  CallRecord& type(MPI_Datatype t);
  // An operation: its predefined handle, or the user operation's commutativity.
  CallRecord& op(MPI_Op op);
  CallRecord& array(const int* v, int n);
  // Read when the record ends.
  CallRecord& out(const int* v);
  // A nonblocking call's request (read at the end), or kNoRequest for a blocking one (nullptr).
  CallRecord& request(const MPI_Request* r) {
    return r ? out(r) : value(runtime::call_trace::kNoRequest);
  }
  CallRecord& out_array(const int* v, const int* n);
  bool active() const { return active_; }
  // Set when the call fails: no record then (the replay refuses the call).
  void cancel() { active_ = false; }

 private:
  struct Out {
    const int* v;
    const int* n;  // nullptr: a single value
  };
  ApiCall& call_;
  runtime::call_trace::Kind kind_;
  bool active_;
  std::vector<std::int64_t> fields_;
  std::vector<std::pair<std::size_t, Out>> outs_;  // by position in fields_
};

}  // namespace simmpi::mpi
