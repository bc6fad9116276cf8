// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/critical_path.hpp"

#include <algorithm>

#include "runtime/core/error.hpp"
#include "runtime/observe/json_text.hpp"

namespace simmpi::runtime {

CriticalPath::CriticalPath(int ranks) : lanes_(static_cast<std::size_t>(ranks)) {
  for (int r = 0; r < ranks; ++r) lanes_[static_cast<std::size_t>(r)].rank = r;
}

const char* CriticalPath::kind_name(Kind k) {
  switch (k) {
    case Kind::Compute:
      return "compute";
    case Kind::Overhead:
      return "overhead";
    case Kind::Network:
      return "network";
    case Kind::Waiting:
      return "waiting";
  }
  return "";
}

std::string CriticalPath::where(int rank, int thread) {
  return thread == 0 ? strprintf("rank %d", rank) : strprintf("rank %d thread %d", rank, thread);
}

CriticalPath::Lane& CriticalPath::lane(int process) {
  if (static_cast<std::size_t>(process) >= lanes_.size())
    lanes_.resize(static_cast<std::size_t>(process) + 1);
  return lanes_[static_cast<std::size_t>(process)];
}

void CriticalPath::thread_started(const ThreadStart& f) {
  Lane& l = lane(f.process);
  l.rank = f.rank;
  l.thread = f.ordinal;
  l.creator = f.creator;
  l.start = f.at;
}

void CriticalPath::thread_joined(const ThreadJoin& f) {
  lane(f.joiner).joins.push_back(f);
}

void CriticalPath::call(const CallFacts& f) {
  if (f.process < 0 || f.rank < 0) return;
  Lane& l = lane(f.process);
  l.rank = f.rank;
  l.thread = f.ordinal;
  Call c{f.begin, f.end, f.blocked, f.name, static_cast<std::uint32_t>(l.received.size()), 0, 0};
  for (const std::vector<MessageLink>* in : {f.received, f.probed})
    if (in)
      for (const MessageLink& m : *in) {
        l.received.push_back({m.id, m.at});
        ++c.received;
        if (f.ordinal != 0 && in == f.received) thread_receiver_[m.id] = f.process;
      }
  if (f.sent)
    for (const MessageLink& m : *f.sent) {
      sent_[m.id] = Sent{f.process, m.rank, m.at, m.bytes, m.rendezvous};
      if (m.rendezvous) c.last_rendezvous_sent = m.id;
    }
  l.calls.push_back(c);
}

std::vector<CriticalPath::Stretch> CriticalPath::walk(const std::vector<SimTime>& end) const {
  std::vector<Stretch> path;
  if (end.empty()) return path;
  // Processes: a rank's own fiber is process `rank`.
  int process = static_cast<int>(std::max_element(end.begin(), end.end()) - end.begin());
  SimTime t = end[static_cast<std::size_t>(process)];
  auto add = [&](Kind k, int where, int from, SimTime b, SimTime e, const char* call,
                 std::uint64_t bytes) {
    const Lane& at = lanes_[static_cast<std::size_t>(where)];
    const Lane& by = lanes_[static_cast<std::size_t>(from)];
    if (e > b) path.push_back({k, at.rank, by.rank, at.thread, by.thread, b, e, call, bytes});
  };
  // The process that received message `id` sent to world rank `to_rank`.
  auto receiver = [&](std::uint64_t id, int to_rank) {
    auto it = thread_receiver_.find(id);
    return it != thread_receiver_.end() ? it->second : to_rank;
  };
  // Each step moves t back (or to another process at an earlier or equal time, by a message that
  // took time to arrive or a thread's start or end), so the walk ends; the bound guards against
  // a cycle of zero-time steps.
  for (std::size_t steps = 0; t > SimTime() && steps < 100000000; ++steps) {
    const Lane& lane = lanes_[static_cast<std::size_t>(process)];
    const std::vector<Call>& calls = lane.calls;
    // The last call that began before t.
    auto it = std::lower_bound(calls.begin(), calls.end(), t,
                               [](const Call& c, SimTime x) { return c.begin < x; });
    const SimTime code_from = it == calls.begin() ? lane.start : std::prev(it)->end;
    if (it == calls.begin() || t > code_from) {
      // Own code from code_from (the last call's end, or the process's start) to t. A join in it
      // that waited for a thread hands the walk to the thread's end.
      auto j = std::upper_bound(lane.joins.begin(), lane.joins.end(), t,
                                [](SimTime x, const ThreadJoin& y) { return x < y.resumed; });
      if (j != lane.joins.begin() && std::prev(j)->resumed > code_from) {
        const ThreadJoin& join = *std::prev(j);
        add(Kind::Compute, process, process, join.resumed, t, "", 0);
        add(Kind::Overhead, process, process, max(join.end, code_from), join.resumed,
            "pthread_join", 0);
        process = join.thread;
        t = min(join.end, t);
        continue;
      }
      add(Kind::Compute, process, process, code_from, t, "", 0);
      t = code_from;
      if (it != calls.begin()) continue;
      if (lane.creator < 0) break;
      process = lane.creator;  // a thread's start: its creator's pthread_create
      continue;
    }
    const Call& c = *--it;
    // Inside call c: the message that came in last before t, if the call waited for it.
    const Received* last = nullptr;
    const std::vector<Received>& in = lane.received;
    for (std::uint32_t i = c.first_received; i < c.first_received + c.received; ++i)
      if (in[i].at <= t && (!last || in[i].at > last->at)) last = &in[i];
    // A process that polls for a message (MPI_Iprobe or MPI_Test in a loop, nothing in between)
    // waits for it from its first poll: calls back to back that received nothing count as one.
    SimTime in_mpi_since = c.begin;
    for (auto p = it; p != calls.begin();) {
      --p;
      if (p->end != in_mpi_since || p->received) break;
      in_mpi_since = p->begin;
    }
    auto sender = last ? sent_.find(last->id) : sent_.end();
    if (last && last->at > in_mpi_since && sender != sent_.end() && sender->second.at <= last->at) {
      add(Kind::Overhead, process, process, last->at, t, c.name, 0);
      if (sender->second.rendezvous && c.begin > sender->second.at) {
        // A rendezvous message moves once its receive is posted: the receiver came last, so
        // its own chain decided the start; the handshake and the transfer are network.
        add(Kind::Network, process, sender->second.process, c.begin, last->at, c.name,
            sender->second.bytes);
        t = c.begin;
        continue;
      }
      add(Kind::Network, process, sender->second.process, sender->second.at, last->at, c.name,
          sender->second.bytes);
      process = sender->second.process;
      t = sender->second.at;
      continue;
    }
    // A rendezvous send whose receive came late: the receiver's chain decided when the data
    // could move.
    if (c.last_rendezvous_sent) {
      auto m = matched_.find(c.last_rendezvous_sent);
      const Sent& s = sent_.at(c.last_rendezvous_sent);
      if (m != matched_.end() && m->second > s.at && m->second < t && m->second >= c.begin) {
        const int to = receiver(c.last_rendezvous_sent, s.to_rank);
        add(Kind::Network, to, process, m->second, t, c.name, s.bytes);
        process = to;
        t = m->second;
        continue;
      }
    }
    // No message explains the call's end. A call made of messages waits only for messages, so
    // its time before the first one came in is its own; one that moved none (a closed-form
    // synchronization: a window's fence, a lock) waited for what no message shows.
    const SimTime in_call = t - c.begin;
    const SimTime waited = c.received == 0 ? std::min(c.blocked, in_call) : SimTime();
    add(Kind::Waiting, process, process, c.begin, c.begin + waited, c.name, 0);
    add(Kind::Overhead, process, process, c.begin + waited, t, c.name, 0);
    t = c.begin;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

CriticalPath::Totals CriticalPath::totals(const std::vector<Stretch>& path) {
  Totals t;
  for (const Stretch& s : path) {
    t.by_kind[static_cast<int>(s.kind)] += s.end - s.begin;
    t.total += s.end - s.begin;
    if (s.kind == Kind::Network) {
      t.latency += s.latency;
      t.transfer += s.transfer;
      t.contention += s.contention();
    }
  }
  return t;
}

std::string CriticalPath::text(const std::vector<Stretch>& path, std::size_t top) {
  const Totals t = totals(path);
  const SimTime total = t.total;
  const SimTime* by_kind = t.by_kind;
  auto pct = [&](SimTime x) {
    return total.ps() > 0 ? 100.0 * static_cast<double>(x.ps()) / static_cast<double>(total.ps())
                          : 0.0;
  };
  std::string out = strprintf(
      "simmpi: critical path: %s s in %zu stretches: compute %.1f%%, MPI overheads %.1f%%, "
      "network %.1f%%, waiting %.1f%%\n",
      total.to_decimal().c_str(), path.size(), pct(by_kind[0]), pct(by_kind[1]), pct(by_kind[2]),
      pct(by_kind[3]));
  if (t.latency + t.transfer > SimTime())
    out += strprintf(
        "simmpi:   network: latency %.1f%%, transfer at full bandwidth %.1f%%, contention and "
        "protocol %.1f%%\n",
        pct(t.latency), pct(t.transfer), pct(t.contention));
  std::vector<std::size_t> order(path.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return path[a].end - path[a].begin > path[b].end - path[b].begin;
  });
  out += strprintf("simmpi:   the longest stretches:\n");
  for (std::size_t i = 0; i < order.size() && i < top; ++i) {
    const Stretch& s = path[order[i]];
    std::string where =
        s.kind == Kind::Network
            ? strprintf("%s -> %s, %llu bytes, into %s",
                        CriticalPath::where(s.from_rank, s.from_thread).c_str(),
                        CriticalPath::where(s.rank, s.thread).c_str(),
                        static_cast<unsigned long long>(s.bytes), s.call)
            : CriticalPath::where(s.rank, s.thread) + (*s.call ? ", " : "") + s.call;
    if (s.kind == Kind::Network && s.latency + s.transfer > SimTime()) {
      where += strprintf(" (latency %s, transfer %s, contention and protocol %s s",
                         s.latency.to_decimal().c_str(), s.transfer.to_decimal().c_str(),
                         s.contention().to_decimal().c_str());
      where += s.link.empty() ? ")" : strprintf("; busiest link %s)", s.link.c_str());
    }
    out += strprintf("simmpi:   %-9s %s s from %s s: %s\n", kind_name(s.kind),
                     (s.end - s.begin).to_decimal().c_str(), s.begin.to_decimal().c_str(),
                     where.c_str());
  }
  return out;
}

std::string CriticalPath::json(const std::vector<Stretch>& path) {
  const Totals t = totals(path);
  const SimTime total = t.total;
  const SimTime* by_kind = t.by_kind;
  std::string out = strprintf(
      "{\n  \"format\": \"simmpi-critical-path-1\",\n  \"length\": %s,\n  \"compute\": %s,\n"
      "  \"overhead\": %s,\n  \"network\": %s,\n  \"waiting\": %s,\n"
      "  \"network_latency\": %s,\n  \"network_transfer\": %s,\n  \"network_contention\": %s,\n"
      "  \"stretches\": [\n",
      total.to_decimal().c_str(), by_kind[0].to_decimal().c_str(), by_kind[1].to_decimal().c_str(),
      by_kind[2].to_decimal().c_str(), by_kind[3].to_decimal().c_str(),
      t.latency.to_decimal().c_str(), t.transfer.to_decimal().c_str(),
      t.contention.to_decimal().c_str());
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Stretch& s = path[i];
    std::string network =
        s.kind == Kind::Network
            ? strprintf(", \"latency\": %s, \"transfer\": %s, \"contention\": %s, \"link\": %s",
                        s.latency.to_decimal().c_str(), s.transfer.to_decimal().c_str(),
                        s.contention().to_decimal().c_str(), json_text(s.link).c_str())
            : "";
    out += strprintf(
        "    {\"kind\": \"%s\", \"rank\": %d, \"from_rank\": %d, \"thread\": %d, "
        "\"from_thread\": %d, \"begin\": %s, \"end\": %s, \"call\": %s, \"bytes\": %llu%s}%s\n",
        kind_name(s.kind), s.rank, s.from_rank, s.thread, s.from_thread,
        s.begin.to_decimal().c_str(), s.end.to_decimal().c_str(), json_text(s.call).c_str(),
        static_cast<unsigned long long>(s.bytes), network.c_str(), i + 1 < path.size() ? "," : "");
  }
  return out + "  ]\n}\n";
}

}  // namespace simmpi::runtime
