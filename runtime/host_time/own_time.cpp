// SPDX-License-Identifier: Apache-2.0
// Charging, recording and replaying the bursts of processes' own code.
#include "runtime/host_time/own_time.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

std::uint64_t stream_key(int owner, int ordinal) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(owner)) << 32 |
         static_cast<std::uint32_t>(ordinal);
}

std::string process_name(int owner, int ordinal) {
  return ordinal == 0 ? strprintf("rank %d", owner)
                      : strprintf("rank %d's thread %d", owner, ordinal);
}

}  // namespace

OwnTime::OwnTime(Options o)
    : scale_(o.scale),
      clock_(o.tsc_hz),
      replay_(std::move(o.replay)),
      record_(std::move(o.record)),
      replay_path_(std::move(o.replay_path)),
      record_path_(std::move(o.record_path)) {
  if (replay_) replayed_.assign(replay_->streams().size(), 0);
}

SimTime OwnTime::end_burst(State& s, const char* call, int owner, int ordinal) {
  std::int64_t ns;
  if (replay_) {
    ns = next_replayed(s, call, owner, ordinal);
  } else {
    ns = clock_.stop(s.marks) + s.extra_ns;
    s.extra_ns = 0;
  }
  if (record_) {
    if (s.stream < 0) s.stream = stream_index(*record_, owner, ordinal);
    record_->streams()[static_cast<std::size_t>(s.stream)].bursts.push_back(
        {record_->call_index(call), ns});
  }
  ++s.bursts;
  s.host_ns += ns;
  const SimTime t = SimTime::from_seconds(static_cast<double>(ns) * 1e-9 * scale_);
  s.charged += t;
  return t;
}

int OwnTime::stream_index(const ComputeProfile& p, int owner, int ordinal) {
  auto [it, added] =
      record_streams_.try_emplace(stream_key(owner, ordinal), static_cast<int>(p.streams().size()));
  if (added) record_->streams().push_back({owner, ordinal, {}});
  return it->second;
}

std::int64_t OwnTime::next_replayed(State& s, const char* call, int owner, int ordinal) {
  if (s.stream < 0) {
    const ComputeProfile::Stream* found = replay_->find_stream(owner, ordinal);
    if (!found) diverged(owner, ordinal, "the profile has no bursts of it (it did not run then)");
    s.stream = static_cast<int>(found - replay_->streams().data());
  }
  const auto& stream = replay_->streams()[static_cast<std::size_t>(s.stream)];
  std::size_t& next = replayed_[static_cast<std::size_t>(s.stream)];
  if (next >= stream.bursts.size())
    diverged(owner, ordinal,
             strprintf("burst %zu ends in %s, but the profile ends after %zu bursts", next + 1,
                       call, stream.bursts.size()));
  const ComputeProfile::Burst& b = stream.bursts[next];
  const std::string& recorded = replay_->calls()[b.call];
  if (recorded != call)
    diverged(owner, ordinal,
             strprintf("burst %zu ends in %s, but in %s in the profile", next + 1, call,
                       recorded.c_str()));
  ++next;
  return b.host_ns;
}

void OwnTime::diverged(int owner, int ordinal, const std::string& what) const {
  fatal(2, strprintf("%s: the compute profile does not fit this run: %s: %s. The program took "
                     "another path than when the profile was recorded (other inputs, or "
                     "timing-dependent choices); record a new one with "
                     "--set runtime.host_time_record=FILE",
                     replay_path_.c_str(), process_name(owner, ordinal).c_str(), what.c_str()));
}

void OwnTime::finish() {
  if (replay_) {
    for (std::size_t i = 0; i < replayed_.size(); ++i) {
      const auto& stream = replay_->streams()[i];
      if (replayed_[i] < stream.bursts.size())
        diverged(stream.owner, stream.ordinal,
                 strprintf("it ended after %zu bursts, the profile has %zu", replayed_[i],
                           stream.bursts.size()));
    }
  }
  if (record_) record_->write(record_path_);
}

}  // namespace simmpi::runtime
