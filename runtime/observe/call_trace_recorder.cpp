// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/call_trace_recorder.hpp"

namespace simmpi::runtime {

namespace ct = call_trace;

CallTraceRecorder::CallTraceRecorder(const std::string& directory, const char* key, int ranks)
    : writer_(directory, key, ranks), lanes_(static_cast<std::size_t>(ranks)) {}

// The own code since the last call that no compute fact explains: measured host time.
void CallTraceRecorder::own_code(int rank, SimTime until) {
  Lane& l = lanes_[static_cast<std::size_t>(rank)];
  const SimTime own = until - l.last_end - l.told;
  l.told = SimTime();
  if (own <= SimTime()) return;
  writer_.begin(rank, ct::Kind::Sleep);
  writer_.field(rank, own.ps());
}

void CallTraceRecorder::untraced(int rank, std::string_view what) {
  writer_.begin(rank, ct::Kind::Untraced);
  writer_.text(rank, what);
}

void CallTraceRecorder::call(const CallFacts& f) {
  if (f.rank < 0 || f.rank >= writer_.ranks()) return;
  if (f.ordinal != 0) {  // a program thread's call: the replay has no threads
    const std::string what = std::string(f.name) + " from a program thread";
    unreplayable_.insert(what);
    return untraced(f.rank, what);
  }
  own_code(f.rank, f.begin);
  if (f.record_kind >= 0 && f.record) {
    writer_.begin(f.rank, static_cast<ct::Kind>(f.record_kind));
    for (std::int64_t v : *f.record) writer_.field(f.rank, v);
  } else {
    if (!ct::is_local_call(f.name)) unreplayable_.insert(f.name);
    untraced(f.rank, f.name);
  }
  lanes_[static_cast<std::size_t>(f.rank)].last_end = f.end;
}

void CallTraceRecorder::compute(const ComputeFacts& f) {
  if (f.ordinal != 0 || f.rank < 0 || f.rank >= writer_.ranks()) return;
  Lane& l = lanes_[static_cast<std::size_t>(f.rank)];
  l.told += f.time;
  if (f.kernel < 0) {
    writer_.begin(f.rank, ct::Kind::Sleep);
    writer_.field(f.rank, f.time.ps());
    return;
  }
  if (l.kernels.insert(f.kernel).second) {
    writer_.begin(f.rank, ct::Kind::Kernel);
    writer_.field(f.rank, f.kernel);
    writer_.text(f.rank, f.kernel_name);
  }
  writer_.begin(f.rank, ct::Kind::Compute);
  for (std::int64_t v : {std::int64_t{f.kernel}, ct::double_bits(f.ops), ct::double_bits(f.bytes),
                         f.m, f.n, f.k, f.time.ps()})
    writer_.field(f.rank, v);
}

bool CallTraceRecorder::finish(const std::vector<SimTime>& end, std::string* error) {
  for (int r = 0; r < writer_.ranks(); ++r)
    if (static_cast<std::size_t>(r) < end.size()) own_code(r, end[static_cast<std::size_t>(r)]);
  return writer_.finish(error);
}

}  // namespace simmpi::runtime
