// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/chrome_trace.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/observe/json_text.hpp"

namespace simmpi::runtime {
namespace {

// Trace-event times are microseconds; six decimals keep every picosecond.
std::string micros(SimTime t) {
  const long long ps = t.ps();
  return strprintf("%lld.%06lld", ps / 1000000, ps % 1000000);
}

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path, const char* key, std::vector<int> node_of_rank,
                         TimelineScope scope)
    : node_of_rank_(std::move(node_of_rank)), scope_(std::move(scope)) {
  gzip_ = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  errno = 0;
  out_ = gzip_ ? static_cast<void*>(gzopen(path.c_str(), "wb6"))
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

void ChromeTrace::write(const char* text) {
  if (gzip_) {
    if (*text && gzputs(static_cast<gzFile>(out_), text) < 0) write_failed_ = true;
  } else if (std::fputs(text, static_cast<std::FILE*>(out_)) < 0) {
    write_failed_ = true;
  }
}

void ChromeTrace::event(const std::string& json) {
  write(events_++ ? ",\n" : "");
  write(json.c_str());
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
        strprintf("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": "
                  "{\"name\": \"node %d\"}}",
                  node, node));
    event(
        strprintf("{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %d, \"args\": "
                  "{\"sort_index\": %d}}",
                  node, node));
  }
  const std::string name =
      ordinal == 0 ? strprintf("rank %d", rank) : strprintf("rank %d thread %d", rank, ordinal);
  event(
      strprintf("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, "
                "\"args\": {\"name\": \"%s\"}}",
                node, process, name.c_str()));
  event(
      strprintf("{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": %d, \"tid\": %d, "
                "\"args\": {\"sort_index\": %d}}",
                node, process, process));
  return l;
}

void ChromeTrace::own_code(int process, const Lane& l, SimTime begin, SimTime end) {
  begin = max(begin, scope_.from());
  end = std::min(end, scope_.to());
  if (end <= begin) return;
  event(
      strprintf("{\"ph\": \"X\", \"cat\": \"compute\", \"name\": \"own code\", \"pid\": %d, "
                "\"tid\": %d, \"ts\": %s, \"dur\": %s}",
                node_of_rank_[static_cast<std::size_t>(l.rank)], process, micros(begin).c_str(),
                micros(end - begin).c_str()));
}

void ChromeTrace::call(const CallFacts& f) {
  if (!scope_.shows(f.rank) || scope_.full(events_, f.begin)) return;
  Lane& l = lane(f.process, f.rank, f.ordinal);
  own_code(f.process, l, l.last_end, f.begin);
  l.last_end = f.end;
  if (!scope_.meets(f.begin, f.end)) return;
  const int pid = node_of_rank_[static_cast<std::size_t>(f.rank)];
  std::string args = strprintf("\"blocked_us\": %s", micros(f.blocked).c_str());
  if (f.bytes >= 0) args += strprintf(", \"bytes\": %lld", static_cast<long long>(f.bytes));
  if (f.peer >= 0) args += strprintf(", \"peer\": %d", f.peer);
  if (f.tag >= 0) args += strprintf(", \"tag\": %d", f.tag);
  if (f.comm_context >= 0 && f.comm_name)
    args += strprintf(", \"comm\": %s", json_text(*f.comm_name).c_str());
  event(
      strprintf("{\"ph\": \"X\", \"cat\": \"MPI\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
                "\"ts\": %s, \"dur\": %s, \"args\": {%s}}",
                f.name, pid, f.process, micros(f.begin).c_str(), micros(f.end - f.begin).c_str(),
                args.c_str()));
  // A flow's ends bind to the slices enclosing them: the middle of each call is inside it, and
  // inside no other slice of the lane.
  const std::string middle = micros(f.begin + SimTime::from_ps((f.end - f.begin).ps() / 2));
  // Both ends of a flow carry the same id, category and name; a collective's own messages are
  // named apart, so they can be hidden in the viewer.
  auto flow = [&](const char* ends, const MessageLink& m) {
    if (!scope_.shows(m.rank)) return;
    event(
        strprintf("{\"ph\": %s, \"cat\": \"message\", \"name\": \"%s\", \"id\": %llu, "
                  "\"pid\": %d, \"tid\": %d, \"ts\": %s}",
                  ends, m.internal ? "collective message" : "message",
                  static_cast<unsigned long long>(m.id), pid, f.process, middle.c_str()));
  };
  if (f.sent)
    for (const MessageLink& m : *f.sent) flow("\"s\"", m);
  if (f.received)
    for (const MessageLink& m : *f.received) flow("\"f\", \"bp\": \"e\"", m);
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
