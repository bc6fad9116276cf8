// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/chrome_trace.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/observe/json_text.hpp"

namespace simmpi::runtime {
namespace {

// Trace-event times are microseconds; six decimals keep every picosecond. Formatted on the
// stack: a timeline writes millions of them.
struct Micros {
  char text[32];
  explicit Micros(SimTime t) {
    const long long ps = t.ps();
    std::snprintf(text, sizeof text, "%lld.%06lld", ps / 1000000, ps % 1000000);
  }
};

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path, const char* key, std::vector<int> node_of_rank,
                         TimelineScope scope)
    : node_of_rank_(std::move(node_of_rank)), scope_(std::move(scope)) {
  gzip_ = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  errno = 0;
  out_ = gzip_ ? static_cast<void*>(gzopen(path.c_str(), "wb1"))
               : static_cast<void*>(std::fopen(path.c_str(), "w"));
  if (!out_)
    throw ConfigError(strprintf("%s = \"%s\": cannot write it (%s); choose a writable path", key,
                                path.c_str(), errno ? std::strerror(errno) : "out of memory"));
  write(
      "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"producer\": \"simmpi\", "
      "\"clock\": \"simulated time\"},\n\"traceEvents\": [\n");
}

ChromeTrace::~ChromeTrace() {
  if (!out_) return;
  if (gzip_)
    gzclose(static_cast<gzFile>(out_));
  else
    std::fclose(static_cast<std::FILE*>(out_));
}

void ChromeTrace::write(const char* text, std::size_t n) {
  if (n == 0) return;
  if (gzip_) {
    if (gzwrite(static_cast<gzFile>(out_), text, static_cast<unsigned>(n)) <= 0)
      write_failed_ = true;
  } else if (std::fwrite(text, 1, n, static_cast<std::FILE*>(out_)) != n) {
    write_failed_ = true;
  }
}

void ChromeTrace::write(const char* text) {
  write(text, std::strlen(text));
}

void ChromeTrace::event(const char* fmt, ...) {
  // One buffer for every event: no allocation per event but for the rare long one.
  char buf[1024];
  std::size_t at = events_++ ? 2 : 0;
  std::memcpy(buf, ",\n", at);
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf + at, sizeof buf - at, fmt, ap);
  va_end(ap);
  if (n >= 0 && static_cast<std::size_t>(n) < sizeof buf - at) {
    write(buf, at + static_cast<std::size_t>(n));
    return;
  }
  std::string long_one(buf, at);
  va_start(ap, fmt);
  long_one.resize(at + static_cast<std::size_t>(n) + 1);
  std::vsnprintf(long_one.data() + at, static_cast<std::size_t>(n) + 1, fmt, ap);
  va_end(ap);
  write(long_one.data(), at + static_cast<std::size_t>(n));
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
  if (static_cast<std::size_t>(node) >= node_named_.size())
    node_named_.resize(static_cast<std::size_t>(node) + 1);
  if (!node_named_[static_cast<std::size_t>(node)]) {
    node_named_[static_cast<std::size_t>(node)] = true;
    event(
        "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": "
        "{\"name\": \"node %d\"}}",
        node, node);
    event(
        "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %d, \"args\": "
        "{\"sort_index\": %d}}",
        node, node);
  }
  const std::string name =
      ordinal == 0 ? strprintf("rank %d", rank) : strprintf("rank %d thread %d", rank, ordinal);
  event(
      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, "
      "\"args\": {\"name\": \"%s\"}}",
      node, process, name.c_str());
  event(
      "{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": %d, \"tid\": %d, "
      "\"args\": {\"sort_index\": %d}}",
      node, process, process);
  return l;
}

void ChromeTrace::own_code(int process, const Lane& l, SimTime begin, SimTime end) {
  scope_.clip(begin, end);
  if (end <= begin) return;
  event(
      "{\"ph\": \"X\", \"cat\": \"compute\", \"name\": \"own code\", \"pid\": %d, "
      "\"tid\": %d, \"ts\": %s, \"dur\": %s}",
      node_of_rank_[static_cast<std::size_t>(l.rank)], process, Micros(begin).text,
      Micros(end - begin).text);
}

void ChromeTrace::call(const CallFacts& f) {
  if (!scope_.shows(f.rank) || scope_.full(events_, f.begin)) return;
  Lane& l = lane(f.process, f.rank, f.ordinal);
  own_code(f.process, l, l.last_end, f.begin);
  l.last_end = f.end;
  if (!scope_.meets(f.begin, f.end)) return;
  const int pid = node_of_rank_[static_cast<std::size_t>(f.rank)];
  char args[512];
  int n = std::snprintf(args, sizeof args, "\"blocked_us\": %s", Micros(f.blocked).text);
  auto add = [&](const char* fmt, auto value) {
    if (n >= 0 && static_cast<std::size_t>(n) < sizeof args)
      n += std::snprintf(args + n, sizeof args - static_cast<std::size_t>(n), fmt, value);
  };
  if (f.bytes >= 0) add(", \"bytes\": %lld", static_cast<long long>(f.bytes));
  if (f.peer >= 0) add(", \"peer\": %d", f.peer);
  if (f.tag >= 0) add(", \"tag\": %d", f.tag);
  if (f.comm_context >= 0 && f.comm_name) {
    if (*f.comm_name != comm_name_) {  // usually the same as the call before
      comm_name_ = *f.comm_name;
      comm_json_ = json_text(comm_name_);
    }
    add(", \"comm\": %s", comm_json_.c_str());
  }
  event(
      "{\"ph\": \"X\", \"cat\": \"MPI\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
      "\"ts\": %s, \"dur\": %s, \"args\": {%s}}",
      f.name, pid, f.process, Micros(f.begin).text, Micros(f.end - f.begin).text, args);
  // A flow's ends bind to the slices enclosing them: the middle of each call is inside it, and
  // inside no other slice of the lane.
  const Micros middle(f.begin + SimTime::from_ps((f.end - f.begin).ps() / 2));
  // Both ends of a flow carry the same id, category and name; a collective's own messages are
  // named apart, so they can be hidden in the viewer.
  auto flow = [&](const char* ends, const MessageLink& m) {
    if (!scope_.shows(m.rank)) return;
    event(
        "{\"ph\": %s, \"cat\": \"message\", \"name\": \"%s\", \"id\": %llu, "
        "\"pid\": %d, \"tid\": %d, \"ts\": %s}",
        ends, m.internal ? "collective message" : "message", static_cast<unsigned long long>(m.id),
        pid, f.process, middle.text);
  };
  if (f.sent)
    for (const MessageLink& m : *f.sent) flow("\"s\"", m);
  if (f.received)
    for (const MessageLink& m : *f.received) flow("\"f\", \"bp\": \"e\"", m);
}

void ChromeTrace::counters(const std::string& group, const std::vector<Counter>& tracks) {
  if (tracks.empty()) return;
  int pid = 0;  // after every node, so the group sorts last
  for (int node : node_of_rank_) pid = std::max(pid, node + 1);
  event("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": {\"name\": %s}}", pid,
        json_text(group).c_str());
  event(
      "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %d, \"args\": "
      "{\"sort_index\": %d}}",
      pid, pid);
  for (const Counter& c : tracks) {
    const std::string name = json_text(c.name);
    for (std::size_t i = 0; i < c.values.size(); ++i)
      event(
          "{\"ph\": \"C\", \"name\": %s, \"pid\": %d, \"ts\": %s, \"args\": "
          "{\"utilization\": %.6f}}",
          name.c_str(), pid,
          Micros(SimTime::from_ps(c.step.ps() * static_cast<std::int64_t>(i))).text, c.values[i]);
  }
}

std::int64_t ChromeTrace::finish(const std::vector<SimTime>& end, std::string* error) {
  for (std::size_t p = 0; p < lanes_.size() && p < end.size(); ++p)
    if (lanes_[p].named) own_code(static_cast<int>(p), lanes_[p], lanes_[p].last_end, end[p]);
  write("\n]}\n");
  errno = 0;
  const int closed =
      gzip_ ? gzclose(static_cast<gzFile>(out_)) : std::fclose(static_cast<std::FILE*>(out_));
  out_ = nullptr;
  if (write_failed_ || closed != 0) {
    *error = errno ? std::strerror(errno) : "a write failed";
    return -1;
  }
  return static_cast<std::int64_t>(events_);
}

}  // namespace simmpi::runtime
