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
  write_polls(rank);
  writer_.begin(rank, ct::Kind::Sleep);
  writer_.field(rank, own.ps());
}

void CallTraceRecorder::untraced(int rank, std::string_view what) {
  write_polls(rank);
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
  if (fold_poll(f)) {
    lanes_[static_cast<std::size_t>(f.rank)].last_end = f.end;
    return;
  }
  write_polls(f.rank);
  if (f.record_kind >= 0 && f.record) {
    writer_.begin(f.rank, static_cast<ct::Kind>(f.record_kind));
    for (std::int64_t v : *f.record) writer_.field(f.rank, v);
    if (f.records_after) write_after(f.rank, *f.records_after);
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
  write_polls(f.rank);
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

// A polling loop's MPI_Iprobe: fruitless ones of one target are held while they follow each
// other with nothing between (own code, compute or another call writes them first); the one
// that finds the message ends the loop, which is written as one record.
bool CallTraceRecorder::fold_poll(const CallFacts& f) {
  if (f.record_kind != static_cast<int>(ct::Kind::Iprobe) || !f.record || f.record->size() != 4 ||
      (f.records_after && !f.records_after->empty()))
    return false;
  const std::vector<std::int64_t>& r = *f.record;  // source tag comm flag
  HeldPolls& h = lanes_[static_cast<std::size_t>(f.rank)].polls;
  const bool same = h.failed > 0 && h.source == r[0] && h.tag == r[1] && h.comm == r[2];
  if (r[3]) {  // found: the end of a loop of this target, or a probe of its own
    if (!same) return false;
    write_polls(f.rank, true);
    return true;
  }
  if (!same) {
    write_polls(f.rank);
    h = HeldPolls{r[0], r[1], r[2], 0};
  }
  ++h.failed;
  return true;
}

void CallTraceRecorder::write_after(int rank, const std::vector<std::int64_t>& records) {
  for (std::size_t i = 0; i + 1 < records.size();) {
    writer_.begin(rank, static_cast<ct::Kind>(records[i]));
    const auto n = static_cast<std::size_t>(records[i + 1]);
    for (std::size_t k = 0; k < n; ++k) writer_.field(rank, records[i + 2 + k]);
    i += 2 + n;
  }
}

void CallTraceRecorder::write_polls(int rank, bool found) {
  HeldPolls& h = lanes_[static_cast<std::size_t>(rank)].polls;
  if (h.failed == 0) return;
  writer_.begin(rank, ct::Kind::IprobeLoop);
  for (std::int64_t v : {h.source, h.tag, h.comm, h.failed, std::int64_t{found}})
    writer_.field(rank, v);
  h.failed = 0;
}

bool CallTraceRecorder::finish(const std::vector<SimTime>& end, std::string* error) {
  for (int r = 0; r < writer_.ranks(); ++r) {
    write_polls(r);
    if (static_cast<std::size_t>(r) < end.size()) own_code(r, end[static_cast<std::size_t>(r)]);
  }
  return writer_.finish(error);
}

}  // namespace simmpi::runtime
