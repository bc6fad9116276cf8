// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/chrome_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/observe/json_text.hpp"

namespace simmpi::runtime {

// Events are written field by field into TextOutput's buffer: the file of a busy run holds
// millions, and formatting each with printf cost as much as compressing it. Compact JSON (no
// blanks) leaves deflate less to read.

ChromeTrace::ChromeTrace(const std::string& path, const char* key, std::vector<int> node_of_rank,
                         TimelineScope scope)
    : node_of_rank_(std::move(node_of_rank)), scope_(std::move(scope)) {
  std::string error;
  if (!out_.open(path, &error))
    throw ConfigError(strprintf("%s = \"%s\": cannot write it (%s); choose a writable path", key,
                                path.c_str(), error.c_str()));
  out_.text(
      "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"simmpi\","
      "\"clock\":\"simulated time\"},\n\"traceEvents\":[\n");
}

void ChromeTrace::begin_event() {
  if (events_++) out_.text(",\n");
}

// {"ph":"M","name":"process_name","pid":3,"args":{"name":"node 3"}} and the like.
void ChromeTrace::metadata(const char* what, int pid, int tid, const char* arg,
                           const std::string& value_json) {
  begin_event();
  out_.text("{\"ph\":\"M\",\"name\":\"");
  out_.text(what);
  out_.text("\",\"pid\":");
  out_.integer(pid);
  if (tid >= 0) {
    out_.text(",\"tid\":");
    out_.integer(tid);
  }
  out_.text(",\"args\":{\"");
  out_.text(arg);
  out_.text("\":");
  out_.text(value_json);
  out_.text("}}");
}

ChromeTrace::Lane& ChromeTrace::lane(int process, int rank, int ordinal) {
  if (static_cast<std::size_t>(process) >= lanes_.size())
    lanes_.resize(static_cast<std::size_t>(process) + 1);
  Lane& l = lanes_[static_cast<std::size_t>(process)];
  if (l.named) return l;
  l.named = true;
  l.rank = rank;
  l.ordinal = ordinal;
  const int node = node_of_rank_[static_cast<std::size_t>(rank)];
  l.where = strprintf(",\"pid\":%d,\"tid\":%d,\"ts\":", node, process);
  if (static_cast<std::size_t>(node) >= node_named_.size())
    node_named_.resize(static_cast<std::size_t>(node) + 1);
  if (!node_named_[static_cast<std::size_t>(node)]) {
    node_named_[static_cast<std::size_t>(node)] = true;
    metadata("process_name", node, -1, "name", json_text(strprintf("node %d", node)));
    metadata("process_sort_index", node, -1, "sort_index", std::to_string(node));
  }
  const std::string name =
      ordinal == 0 ? strprintf("rank %d", rank) : strprintf("rank %d thread %d", rank, ordinal);
  metadata("thread_name", node, process, "name", json_text(name));
  metadata("thread_sort_index", node, process, "sort_index", std::to_string(process));
  return l;
}

const std::string& ChromeTrace::head_of(Lane& l, const char* cat, const char* name) {
  for (const auto& [known, head] : l.heads)
    if (known == name) return head;
  l.heads.emplace_back(name, strprintf("{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\"%s", cat, name,
                                       l.where.c_str()));
  return l.heads.back().second;
}

// The fields every slice has: {"ph":"X","cat":CAT,"name":NAME,"pid":P,"tid":T,"ts":B,"dur":D
void ChromeTrace::slice_head(const std::string& head, SimTime begin, SimTime end) {
  begin_event();
  out_.text(head);
  out_.micros(begin.ps());
  out_.text(",\"dur\":");
  out_.micros((end - begin).ps());
}

void ChromeTrace::own_code(Lane& l, SimTime begin, SimTime end) {
  scope_.clip(begin, end);
  if (end <= begin) return;
  slice_head(head_of(l, "compute", "own code"), begin, end);
  out_.text('}');
}

void ChromeTrace::call(const CallFacts& f) {
  if (!scope_.shows(f.rank) || scope_.full(events_, f.begin)) return;
  Lane& l = lane(f.process, f.rank, f.ordinal);
  own_code(l, l.last_end, f.begin);
  l.last_end = f.end;
  if (!scope_.meets(f.begin, f.end)) return;
  slice_head(head_of(l, "MPI", f.name), f.begin, f.end);
  out_.text(",\"args\":{\"blocked_us\":");
  out_.micros(f.blocked.ps());
  if (f.bytes >= 0) {
    out_.text(",\"bytes\":");
    out_.integer(f.bytes);
  }
  if (f.peer >= 0) {
    out_.text(",\"peer\":");
    out_.integer(f.peer);
  }
  if (f.tag >= 0) {
    out_.text(",\"tag\":");
    out_.integer(f.tag);
  }
  if (f.comm_context >= 0 && f.comm_name) {
    if (*f.comm_name != comm_name_) {  // usually the same as the call before
      comm_name_ = *f.comm_name;
      comm_json_ = json_text(comm_name_);
    }
    out_.text(",\"comm\":");
    out_.text(comm_json_);
  }
  out_.text("}}");
  // A flow's ends bind to the slices enclosing them: the middle of each call is inside it, and
  // inside no other slice of the lane.
  const std::int64_t middle = f.begin.ps() + (f.end - f.begin).ps() / 2;
  // Both ends of a flow carry the same id, category and name; a collective's own messages are
  // named apart, so they can be hidden in the viewer.
  auto flow = [&](std::string_view head, const MessageLink& m) {
    if (!scope_.shows(m.rank)) return;
    begin_event();
    out_.text(head);
    out_.text(m.internal ? "\"collective message\",\"id\":" : "\"message\",\"id\":");
    out_.integer(static_cast<std::int64_t>(m.id));
    out_.text(l.where);
    out_.micros(middle);
    out_.text('}');
  };
  if (f.sent)
    for (const MessageLink& m : *f.sent) flow("{\"ph\":\"s\",\"cat\":\"message\",\"name\":", m);
  if (f.received)
    for (const MessageLink& m : *f.received)
      flow("{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"message\",\"name\":", m);
}

void ChromeTrace::counters(const std::string& group, const std::vector<CounterTrack>& tracks) {
  if (tracks.empty()) return;
  int pid = 0;  // after every node, so the group sorts last
  for (int node : node_of_rank_) pid = std::max(pid, node + 1);
  metadata("process_name", pid, -1, "name", json_text(group));
  metadata("process_sort_index", pid, -1, "sort_index", std::to_string(pid));
  for (const CounterTrack& c : tracks) {
    const std::string name = json_text(c.name);
    for (std::size_t i = 0; i < c.values.size(); ++i) {
      begin_event();
      out_.text("{\"ph\":\"C\",\"name\":");
      out_.text(name);
      out_.text(",\"pid\":");
      out_.integer(pid);
      out_.text(",\"ts\":");
      out_.micros(c.step.ps() * static_cast<std::int64_t>(i));
      char value[48];
      const int n =
          std::snprintf(value, sizeof value, ",\"args\":{\"utilization\":%.6f}}", c.values[i]);
      out_.text(std::string_view(value, static_cast<std::size_t>(n)));
    }
  }
}

std::int64_t ChromeTrace::finish(const std::vector<SimTime>& end, std::string* error) {
  for (std::size_t p = 0; p < lanes_.size() && p < end.size(); ++p)
    if (lanes_[p].named) own_code(lanes_[p], lanes_[p].last_end, end[p]);
  out_.text("\n]}\n");
  if (!out_.close(error)) return -1;
  return static_cast<std::int64_t>(events_);
}

}  // namespace simmpi::runtime
