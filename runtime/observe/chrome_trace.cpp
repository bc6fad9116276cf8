// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/chrome_trace.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/observe/json_text.hpp"

namespace simmpi::runtime {

// Events are written field by field into TextOutput's buffer: the file of a busy run holds
// millions, and formatting each with printf cost as much as compressing it. Compact JSON (no
// blanks, no "cat", no argument that says nothing) leaves less to format and compress.

ChromeTrace::ChromeTrace(const std::string& path, const char* key, std::vector<int> node_of_rank,
                         TimelineScope scope)
    : node_of_rank_(std::move(node_of_rank)), scope_(std::move(scope)) {
  for (std::size_t i = 0; i < flow_open_.size(); ++i)
    flow_open_[i] = TextOutput::ShortText(kFlowOpen[i]);
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

ChromeTrace::Lane& ChromeTrace::new_lane(int process, int rank, int ordinal) {
  if (static_cast<std::size_t>(process) >= lanes_.size())
    lanes_.resize(static_cast<std::size_t>(process) + 1);
  Lane& l = lanes_[static_cast<std::size_t>(process)];
  l.named = true;
  l.rank = rank;
  l.ordinal = ordinal;
  const int node = node_of_rank_[static_cast<std::size_t>(rank)];
  l.where = TextOutput::ShortText(strprintf(",\"pid\":%d,\"tid\":%d,\"ts\":", node, process));
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

// Both ends of a flow carry the same id, category and name; a collective's own messages are named
// and categorized apart, so that chrome://tracing shows or hides them apart (its "Flow events").
const char* const ChromeTrace::kFlowOpen[5] = {
    "",
    ",\n{\"ph\":\"s\",\"cat\":\"message\",\"name\":\"message\",\"id\":",
    ",\n{\"ph\":\"s\",\"cat\":\"collective\",\"name\":\"collective message\",\"id\":",
    ",\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"message\",\"name\":\"message\",\"id\":",
    ",\n{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"collective\",\"name\":\"collective "
    "message\",\"id\":",
};

ChromeTrace::Head& ChromeTrace::find_head(Lane& l, const char* key, Flow flow, bool slice) {
  for (const auto& h : l.heads)
    if (h->key == key && h->flow == flow) return *h;
  Kind* kind = nullptr;
  for (const auto& k : kinds_)
    if (k->key == key && k->flow == flow) kind = k.get();
  if (!kind) {
    kind = kinds_.emplace_back(std::make_unique<Kind>()).get();
    kind->key = key;
    kind->flow = flow;
    if (slice) kind->open = TextOutput::ShortText(",\n{\"ph\":\"X\",\"name\":" + json_text(key));
  }
  return *l.heads.emplace_back(std::make_unique<Head>(Head{key, flow, kind, {}, {}, {}}));
}

bool ChromeTrace::begin_event(Head& h) {
  // Every unit follows its lane's metadata: its separator, part of the kind's opening text, is
  // the same as its reference's.
  SIMMPI_ASSERT(events_ > 0, "a timeline event before the lane's metadata");
  ++events_;
  return out_.begin(h.last, h.kind->last);
}

// The fields every slice has: ,\n{"ph":"X","name":NAME,"pid":P,"tid":T,"ts":B
inline bool ChromeTrace::slice_head(Head& h, const Lane& l, SimTime begin) {
  const bool near = begin_event(h);
  out_.same(h.kind->open);
  where(l, near);
  out_.micros(begin.ps());
  return near;
}

void ChromeTrace::own_code_slice(Lane& l, SimTime begin, SimTime end) {
  if (!scope_.clip_own_code(begin, end)) return;
  slice_head(head(l, "own code", kNoFlow, true), l, begin);
  out_.same(",\"dur\":");
  out_.micros((end - begin).ps());
  out_.same("}");
  out_.end();
}

namespace {

// The time with the fewest digits strictly inside (begin, end), in picoseconds (the shortest
// number to write), where a flow's end binds to the slice it belongs to (the slice before or
// after may touch its ends); the middle, which is `begin`, when there is no picosecond inside.
std::int64_t inside(std::int64_t begin, std::int64_t end) {
  const std::int64_t length = end - begin;
  if (length < 2) return begin + length / 2;
  // The largest power of ten below the length: 10^d for the d digits of (length - 1) / 10, from
  // its bit width (log10(2) is about 1233 / 4096) and one comparison, where a loop took one
  // multiplication a digit.
  static constexpr std::array<std::uint64_t, 20> kPowers = [] {
    std::array<std::uint64_t, 20> p{};
    p[0] = 1;
    for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
    return p;
  }();
  const auto q = static_cast<std::uint64_t>((length - 1) / 10);
  const auto guess = static_cast<std::size_t>(std::bit_width(q) * 1233 >> 12);
  const auto step = static_cast<std::int64_t>(kPowers[guess + (q >= kPowers[guess])]);
  return (begin / step + 1) * step;  // at most begin + step < end
}

}  // namespace

// ',"dur":D,"args":{...}}' of a call: the arguments that say something (no blocked time
// (zero), bytes, peer or tag is left out).
std::string ChromeTrace::tail_text(const Tail& t) const {
  std::string text = ",\"dur\":";
  char number[TextOutput::kMaxNumber];
  text.append(number, TextOutput::format_micros(number, t.duration));
  bool first = true;
  auto key = [&](std::string_view key) {  // `key` begins with its comma
    if (first) {
      text += ",\"args\":{";
      key.remove_prefix(1);
      first = false;
    }
    text += key;
  };
  if (t.blocked != 0) {
    key(",\"blocked_us\":");
    text.append(number, TextOutput::format_micros(number, t.blocked));
  }
  for (const auto& [value, name] :
       {std::pair{t.bytes, ",\"bytes\":"}, std::pair{std::int64_t{t.peer}, ",\"peer\":"},
        std::pair{std::int64_t{t.tag}, ",\"tag\":"}})
    if (value >= 0) {
      key(name);
      text.append(number, TextOutput::format_integer(number, value));
    }
  if (t.comm) key(comm_json_);
  text += first ? "}" : "}}";
  return text;
}

inline void ChromeTrace::flow_end(Flow flow, const MessageLink& m, std::int64_t at, const Lane& l,
                                  bool near) {
  out_.same(flow_open_[flow]);
  out_.integer(static_cast<std::int64_t>(m.id));
  where(l, near);
  out_.micros(at);
  out_.same("}");
}

void ChromeTrace::call(const CallFacts& f) {
  if (!scope_.shows(f.rank) || scope_.full(events_, f.begin)) return;
  Lane& l = lane(f.process, f.rank, f.ordinal);
  own_code(l, l.last_end, f.begin);
  l.last_end = f.end;
  if (!scope_.meets(f.begin, f.end)) return;
  // The flow ends of the call's messages between shown ranks: one goes in the slice's unit.
  int ends = 0;
  const MessageLink* only = nullptr;
  Flow only_flow = kNoFlow;
  auto count = [&](const std::vector<MessageLink>* messages, Flow plain, Flow internal) {
    if (messages)
      for (const MessageLink& m : *messages)
        if (scope_.shows(m.rank)) {
          ++ends;
          only = &m;
          only_flow = m.internal ? internal : plain;
        }
  };
  count(f.sent, kSent, kSentInternal);
  count(f.received, kReceived, kReceivedInternal);
  Head& h = head(l, f.name, ends == 1 ? only_flow : kNoFlow, true);
  const bool near = slice_head(h, l, f.begin);
  // The rest, from the duration on, is often the same as the lane's last call of the kind: made
  // again only when it is not.
  if (f.comm_context >= 0 && f.comm_name &&
      (f.comm_name_stamp == 0 || f.comm_name_stamp != comm_stamp_)) {
    comm_stamp_ = f.comm_name_stamp;  // usually the same as the call before's
    if (*f.comm_name != comm_name_) {
      comm_name_ = *f.comm_name;
      comm_json_ = ",\"comm\":" + json_text(comm_name_);
      ++comm_names_;
    }
  }
  const Tail tail{(f.end - f.begin).ps(),
                  f.blocked.ps(),
                  f.bytes,
                  f.peer,
                  f.tag,
                  f.comm_context >= 0 && f.comm_name ? comm_names_ : 0};
  // The reference is h's last call when `near`, whose tail h.tail is.
  const bool same_tail = tail == h.tail;
  if (!same_tail) {
    h.tail = tail;
    h.tail_text = TextOutput::TailText(tail_text(tail));
  }
  out_.piece(h.tail_text, near && same_tail);
  // A flow's ends bind to the slices enclosing them (a time inside the call is inside no other
  // slice of the lane), and both viewers read a flow's events in time order, dropping an end
  // met before its start: the start is inside the sending call before the message left, the end
  // inside the receiving call from the time its data was in (no earlier than it left).
  const std::int64_t begin = f.begin.ps(), end = f.end.ps();
  auto at = [&](Flow flow, const MessageLink& m) {
    return flow == kSent || flow == kSentInternal
               ? inside(begin, std::clamp(m.at.ps(), begin, end))
               : inside(std::clamp(m.at.ps() - 1, begin, end), end);
  };
  if (ends == 1) {
    ++events_;
    flow_end(only_flow, *only, at(only_flow, *only), l, near);
  }
  out_.end();
  if (ends < 2) return;
  auto unit = [&](Flow flow, const MessageLink& m) {  // a flow end as a unit of its own
    if (!scope_.shows(m.rank)) return;
    Head& fh = head(l, kFlowOpen[flow], kNoFlow, false);
    flow_end(flow, m, at(flow, m), l, begin_event(fh));
    out_.end();
  };
  if (f.sent)
    for (const MessageLink& m : *f.sent) unit(m.internal ? kSentInternal : kSent, m);
  if (f.received)
    for (const MessageLink& m : *f.received) unit(m.internal ? kReceivedInternal : kReceived, m);
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
