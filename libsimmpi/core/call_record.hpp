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
      : call_(call), kind_(kind), rec_(call.record_state()) {}
  ~CallRecord() {
    if (rec_) finish();
  }
  CallRecord(const CallRecord&) = delete;
  CallRecord& operator=(const CallRecord&) = delete;

  CallRecord& value(std::int64_t v) { return rec_ ? add_value(v) : *this; }
  CallRecord& real(double v) { return value(runtime::call_trace::double_bits(v)); }
  // A datatype as the trace keeps it: its predefined handle, or -1 - size for a derived one.
  CallRecord& type(MPI_Datatype t) { return rec_ ? add_type(t) : *this; }
  // An operation: its predefined handle, or the user operation's commutativity.
  CallRecord& op(MPI_Op op) { return rec_ ? add_op(op) : *this; }
  CallRecord& array(const int* v, int n) { return rec_ ? add_array(v, n) : *this; }
  // A string field ('s': its length, then its bytes).
  CallRecord& text(const char* s) { return rec_ ? add_text(s) : *this; }
  // An array of `n` datatypes (each as type() keeps it).
  CallRecord& types(const MPI_Datatype* v, int n) { return rec_ ? add_types(v, n) : *this; }
  // Read when the record ends.
  CallRecord& out(const int* v) { return rec_ ? add_out(v, nullptr) : *this; }
  // A nonblocking call's request (read at the end), or kNoRequest for a blocking one (nullptr).
  CallRecord& request(const MPI_Request* r) {
    return r ? out(r) : value(runtime::call_trace::kNoRequest);
  }
  CallRecord& out_array(const int* v, const int* n) { return rec_ ? add_out(v, n) : *this; }
  // A persistent collective's init call: the record of the collective's nonblocking form goes
  // under its persistent kind (call_trace::kPersistentCollectives).
  void persistent();
  bool active() const { return rec_ != nullptr; }
  // Set when the call fails: no record then (the replay refuses the call).
  void cancel();

 private:
  // The work when active, out of line (a branch each when no one records: every call makes a
  // record).
  CallRecord& add_value(std::int64_t v);
  CallRecord& add_out(const int* v, const int* n);
  CallRecord& add_type(MPI_Datatype t);
  CallRecord& add_op(MPI_Op op);
  CallRecord& add_array(const int* v, int n);
  CallRecord& add_text(const char* s);
  CallRecord& add_types(const MPI_Datatype* v, int n);
  void finish();  // outputs read, the record's kind given to the call

  ApiCall& call_;
  runtime::call_trace::Kind kind_;
  // The call's observation state, which holds the record (nullptr: no one records). The fields
  // go there directly, so that a call no one records builds nothing.
  ObservedCall* rec_;
};

}  // namespace simmpi::mpi
