// SPDX-License-Identifier: Apache-2.0
// A compute profile: every process's measured bursts of own code (host nanoseconds, and the call
// that ended each), recorded by one run so that later runs charge exactly the same compute
// (runtime.host_time_record / runtime.host_time_replay). Its header names what it was measured
// on (program, arguments, ranks, host), so a profile that does not fit a run is refused.
//
// File layout (integers are LEB128 varints, strings a varint length and bytes):
//   "SIMMPI-COMPUTE-PROFILE 1\n"
//   header: count, then (key, value) strings
//   calls:  count, then names
//   streams: count, then per stream owner, ordinal, burst count, then (call index, ns) pairs
//   "END\n" (a truncated file lacks it)
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace simmpi::runtime {

class ComputeProfile {
 public:
  struct Burst {
    std::uint32_t call;  // index into calls()
    std::int64_t host_ns;
  };
  // The bursts of one process: a rank (ordinal 0) or its ordinal-th program thread.
  struct Stream {
    int owner = 0;
    int ordinal = 0;
    std::vector<Burst> bursts;
  };

  void set_header(const std::string& key, const std::string& value);
  // The header's value for `key`, or nullptr.
  const std::string* header(const std::string& key) const;
  const std::vector<std::pair<std::string, std::string>>& header_entries() const { return header_; }

  const std::vector<std::string>& calls() const { return calls_; }
  // The index of call name `name` (a string that lives as long as the run: call names are
  // literals), adding it when new.
  std::uint32_t call_index(const char* name);

  std::vector<Stream>& streams() { return streams_; }
  const std::vector<Stream>& streams() const { return streams_; }
  // The stream of (owner, ordinal), or nullptr.
  const Stream* find_stream(int owner, int ordinal) const;

  // Throws ConfigError naming `path` when it cannot be written.
  void write(const std::string& path) const;
  // Throws ConfigError naming `path` and what is wrong (missing, not a profile, truncated).
  static ComputeProfile read(const std::string& path);

 private:
  std::vector<std::pair<std::string, std::string>> header_;
  std::vector<std::string> calls_;
  std::unordered_map<const char*, std::uint32_t> call_by_pointer_;
  std::vector<Stream> streams_;
};

}  // namespace simmpi::runtime
