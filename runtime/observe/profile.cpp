// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/profile.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/observe/json_text.hpp"

namespace simmpi::runtime {
namespace {

// Seconds for the text summary: 9 decimals (nanoseconds) are what a person compares.
std::string secs(SimTime t) {
  return strprintf("%.9f", t.seconds());
}

double share(SimTime part, SimTime whole) {
  return whole.ps() > 0 ? 100.0 * static_cast<double>(part.ps()) / static_cast<double>(whole.ps())
                        : 0.0;
}

SimTime mean_of(SimTime total, int n) {
  return n > 0 ? SimTime::from_ps(total.ps() / n) : SimTime();
}

}  // namespace

Profile::Profile(int ranks)
    : rank_count_(ranks),
      ranks_(static_cast<std::size_t>(ranks)),
      threads_(static_cast<std::size_t>(ranks)) {}

const Profile::NameSlot& Profile::add_function(const char* name) {
  std::size_t index = 0;
  while (index < functions_.size() && functions_[index].name != name) ++index;
  if (index == functions_.size()) {
    functions_.push_back({name, std::strcmp(name, "MPI_Comm_set_name") == 0});
    cells_.resize(cells_.size() + ranks_.size());
  }
  NameSlot& s = by_name_[name_slot(name)];
  s = {name, index * ranks_.size(), index, functions_[index].renames_comm};
  return s;
}

// A leaf that touches only the call's cell when it is a rank's own call whose function the
// table answers at once, on the communicator of the cell's calls so far; any other call goes
// through call_looked_up (a tail call).
void Profile::call(const CallFacts& f) {
  if (static_cast<unsigned>(f.rank) >= static_cast<unsigned>(rank_count_)) return;
  const NameSlot& fn = by_name_[name_slot(f.name)];
  if (fn.name != f.name) return call_looked_up(f);
  Cell& c = cells_[fn.first_cell + static_cast<std::size_t>(f.rank)];
  if (c.comm_key != packed_key(f) || c.size_and_ordinal != size_and_ordinal(f.comm_size, f.ordinal))
    return call_looked_up(f);
  add(c, f);
}

void Profile::call_looked_up(const CallFacts& f) {
  const NameSlot& slot = by_name_[name_slot(f.name)];
  const NameSlot& fn = slot.name == f.name ? slot : add_function(f.name);
  const std::size_t index = fn.first_cell + static_cast<std::size_t>(f.rank);
  const std::uint64_t key = f.comm_context < 0 ? kNoComm : packed_key(f);
  Cell& c = cells_[index];
  if (c.comm_key != key || c.size_and_ordinal != size_and_ordinal(f.comm_size, 0)) {
    fold(index);
    // The cell keeps the communicator of its calls from now on, unless the call renames it or
    // a call on it may have to look at its name: such calls count on the communicator at once.
    bool keeps = true;
    if (f.comm_context >= 0) {
      Comm& m = comm_of(f);
      m.size = f.comm_size;
      if (!m.settled || fn.renames_comm) follow_name(m, f, fn.renames_comm);
      // The renaming rank's next call on m shows the name: its cells let go of m.
      if (fn.renames_comm)
        for (std::size_t g = 0; g < functions_.size(); ++g) {
          const std::size_t other = g * ranks_.size() + static_cast<std::size_t>(f.rank);
          if (cells_[other].comm_key == key) fold(other);
        }
      keeps = m.settled && !fn.renames_comm;
      if (!keeps) add(m.figures, f);
    }
    if (keeps) {
      c.comm_key = key;
      c.size_and_ordinal = size_and_ordinal(f.comm_size, 0);
    }
  }
  add(c, f);
  if (f.ordinal != 0) {
    Rank& t = threads_[static_cast<std::size_t>(f.rank)];
    ++t.calls;
    t.mpi += f.end - f.begin;
    t.blocked += f.blocked;
  }
}

void Profile::fold(std::size_t index) {
  Cell& c = cells_[index];
  if (c.calls > 0) {
    if (folded_.size() < cells_.size()) folded_.resize(cells_.size());
    add(folded_[index], c);
    if (c.comm_key != kNoComm) add(comm_at(c.comm_key).figures, c);
    static_cast<Figures&>(c) = Figures{};
  }
  c.comm_key = kNoComm;
  c.size_and_ordinal = 0;
}

// The name a communicator is seen with: by its first call, and by a rank's next call after it
// renamed it (its MPI_Comm_set_name call sees the old name). Only then is it read: a comparison
// per call cost a tenth of the profile's time on a ping-pong.
void Profile::follow_name(Comm& m, const CallFacts& f, bool renames) {
  bool look = !m.named;
  auto r = std::find(m.renaming.begin(), m.renaming.end(), f.rank);
  if (r != m.renaming.end()) {
    m.renaming.erase(r);
    look = true;
  }
  if (look && f.comm_name) {
    if (!f.comm_name->empty()) m.name = *f.comm_name;
    m.named = true;
  }
  if (renames && std::find(m.renaming.begin(), m.renaming.end(), f.rank) == m.renaming.end())
    m.renaming.push_back(f.rank);
  m.settled = m.named && m.renaming.empty();
}

void Profile::finish(const std::vector<SimTime>& rank_end, const std::vector<SimTime>& rank_start) {
  // Every cell's calls to its communicator, and those folded before back in the cell.
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    Cell& c = cells_[i];
    if (c.comm_key != kNoComm && c.calls > 0) add(comm_at(c.comm_key).figures, c);
    c.comm_key = kNoComm;
    c.size_and_ordinal = 0;
    if (i < folded_.size()) add(c, folded_[i]);
  }
  folded_.clear();
  // A rank's own fiber's calls: all its calls less its threads'.
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    Rank& k = ranks_[r];
    k.calls = 0;
    k.mpi = k.blocked = SimTime();
    for (std::size_t fn = 0; fn < functions_.size(); ++fn) {
      const Figures& c = cell(fn, static_cast<int>(r));
      k.calls += c.calls;
      k.mpi += c.time;
      k.blocked += c.blocked;
    }
    k.calls -= threads_[r].calls;
    k.mpi = k.mpi - threads_[r].mpi;
    k.blocked = k.blocked - threads_[r].blocked;
  }
  for (std::size_t r = 0; r < ranks_.size() && r < rank_end.size(); ++r)
    ranks_[r].end = rank_end[r];
  for (std::size_t r = 0; r < ranks_.size() && r < rank_start.size(); ++r)
    ranks_[r].start = rank_start[r];
  // Slots for ranks that could have started during the run and did not are left out.
  if (!rank_end.empty() && rank_end.size() < ranks_.size())
    rank_count_ = static_cast<int>(rank_end.size());
}

Profile::Spread Profile::spread(std::size_t function) const {
  Spread s;
  for (int r = 0; r < rank_count_; ++r) {
    const Figures& c = cell(function, r);
    if (c.calls == 0) continue;
    if (s.calling == 0 || c.time < s.min) s.min = c.time, s.min_rank = r;
    if (s.calling == 0 || c.time > s.max) s.max = c.time, s.max_rank = r;
    ++s.calling;
    s.total += c.time;
    s.blocked += c.blocked;
    s.calls += c.calls;
    s.bytes += c.bytes;
  }
  return s;
}

std::vector<std::size_t> Profile::functions_by_time() const {
  std::vector<std::size_t> order(functions_.size());
  std::vector<SimTime> total(functions_.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    total[i] = spread(i).total;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return total[a] != total[b] ? total[a] > total[b] : functions_[a].name < functions_[b].name;
  });
  return order;
}

std::vector<Profile::CommKey> Profile::comms_by_time() const {
  std::vector<CommKey> order;
  for (const auto& [key, m] : comms_) order.push_back(key);
  std::stable_sort(order.begin(), order.end(), [&](const CommKey& a, const CommKey& b) {
    return comms_.at(a).figures.time > comms_.at(b).figures.time;
  });
  return order;
}

std::string Profile::text(std::size_t top) const {
  SimTime end, own, mpi, blocked;
  int own_max_rank = 0, own_min_rank = 0, mpi_max_rank = 0;
  for (int r = 0; r < rank_count_; ++r) {
    const Rank& k = ranks_[static_cast<std::size_t>(r)];
    end = max(end, k.end);
    own += own_code(r);
    mpi += k.mpi;
    blocked += k.blocked;
    if (own_code(r) > own_code(own_max_rank)) own_max_rank = r;
    if (own_code(r) < own_code(own_min_rank)) own_min_rank = r;
    if (k.mpi > ranks_[static_cast<std::size_t>(mpi_max_rank)].mpi) mpi_max_rank = r;
  }
  const SimTime all = own + mpi;
  std::string out = strprintf(
      "simmpi: profile: %d ranks, %s s simulated; of the ranks' time: own code %.1f%%, MPI "
      "%.1f%% (blocked waiting %.1f%%, the ranks' own overheads %.1f%%)\n",
      rank_count_, secs(end).c_str(), share(own, all), share(mpi, all), share(blocked, all),
      share(mpi - blocked, all));
  const SimTime own_mean = mean_of(own, rank_count_), own_max = own_code(own_max_rank);
  out += strprintf(
      "simmpi:   own code per rank: min %s s (rank %d), mean %s s, max %s s (rank %d); load "
      "balance %.3f (mean / max)\n",
      secs(own_code(own_min_rank)).c_str(), own_min_rank, secs(own_mean).c_str(),
      secs(own_max).c_str(), own_max_rank,
      own_max.ps() > 0 ? static_cast<double>(own_mean.ps()) / static_cast<double>(own_max.ps())
                       : 1.0);
  out += strprintf("simmpi:   MPI per rank: mean %s s, max %s s (rank %d)\n",
                   secs(mean_of(mpi, rank_count_)).c_str(),
                   secs(ranks_[static_cast<std::size_t>(mpi_max_rank)].mpi).c_str(), mpi_max_rank);
  out += strprintf("simmpi:   %-22s %10s %14s %14s %6s %14s %14s %6s %6s\n", "function", "calls",
                   "bytes", "time (s)", "%", "min/rank (s)", "max/rank (s)", "@rank", "blocked");
  const std::vector<std::size_t> order = functions_by_time();
  for (std::size_t i = 0; i < order.size() && i < top; ++i) {
    const Function& f = functions_[order[i]];
    const Spread s = spread(order[i]);
    out +=
        strprintf("simmpi:   %-22s %10llu %14lld %14s %5.1f%% %14s %14s %6d %5.1f%%\n",
                  f.name.c_str(), static_cast<unsigned long long>(s.calls),
                  static_cast<long long>(s.bytes), secs(s.total).c_str(), share(s.total, all),
                  secs(s.min).c_str(), secs(s.max).c_str(), s.max_rank, share(s.blocked, s.total));
  }
  if (order.size() > top)
    out += strprintf("simmpi:   (%zu more functions in the JSON file)\n", order.size() - top);
  // Disjoint communicators made by one split share a context and a name: their rank 0 tells them
  // apart.
  out += strprintf("simmpi:   %-22s %10s %10s %10s %14s %14s %6s\n", "communicator", "size",
                   "its rank 0", "calls", "bytes", "time (s)", "%");
  const std::vector<CommKey> comms = comms_by_time();
  for (std::size_t i = 0; i < comms.size() && i < top; ++i) {
    const Comm& m = comms_.at(comms[i]);
    out += strprintf("simmpi:   %-22s %10d %10d %10llu %14lld %14s %5.1f%%\n", m.name.c_str(),
                     m.size, comms[i].second, static_cast<unsigned long long>(m.figures.calls),
                     static_cast<long long>(m.figures.bytes), secs(m.figures.time).c_str(),
                     share(m.figures.time, all));
  }
  if (comms.size() > top)
    out += strprintf("simmpi:   (%zu more communicators in the JSON file)\n", comms.size() - top);
  return out;
}

std::string Profile::json() const {
  SimTime end, own, mpi, blocked;
  for (int r = 0; r < rank_count_; ++r) {
    end = max(end, ranks_[static_cast<std::size_t>(r)].end);
    own += own_code(r);
    mpi += ranks_[static_cast<std::size_t>(r)].mpi;
    blocked += ranks_[static_cast<std::size_t>(r)].blocked;
  }
  std::string out = "{\n  \"format\": \"simmpi-profile-1\",\n";
  out += strprintf("  \"ranks\": %d,\n  \"end\": %s,\n", rank_count_, end.to_decimal().c_str());
  out +=
      strprintf("  \"total\": {\"own_code\": %s, \"mpi\": %s, \"blocked\": %s},\n",
                own.to_decimal().c_str(), mpi.to_decimal().c_str(), blocked.to_decimal().c_str());
  out += "  \"per_rank\": [\n";
  for (int r = 0; r < rank_count_; ++r) {
    const Rank& k = ranks_[static_cast<std::size_t>(r)];
    out += strprintf(
        "    {\"rank\": %d, \"end\": %s, \"own_code\": %s, \"mpi\": %s, \"blocked\": %s, "
        "\"calls\": %llu}%s\n",
        r, k.end.to_decimal().c_str(), own_code(r).to_decimal().c_str(), k.mpi.to_decimal().c_str(),
        k.blocked.to_decimal().c_str(), static_cast<unsigned long long>(k.calls),
        r + 1 < rank_count_ ? "," : "");
  }
  out += "  ],\n  \"functions\": [\n";
  const std::vector<std::size_t> order = functions_by_time();
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Function& f = functions_[order[i]];
    const Spread s = spread(order[i]);
    out += strprintf(
        "    {\"name\": %s, \"calls\": %llu, \"bytes\": %lld, \"time\": %s, \"blocked\": %s, "
        "\"ranks\": %d, \"min\": %s, \"min_rank\": %d, \"mean\": %s, \"max\": %s, \"max_rank\": "
        "%d}%s\n",
        json_text(f.name).c_str(), static_cast<unsigned long long>(s.calls),
        static_cast<long long>(s.bytes), s.total.to_decimal().c_str(),
        s.blocked.to_decimal().c_str(), s.calling, s.min.to_decimal().c_str(), s.min_rank,
        mean_of(s.total, s.calling).to_decimal().c_str(), s.max.to_decimal().c_str(), s.max_rank,
        i + 1 < order.size() ? "," : "");
  }
  out += "  ],\n  \"communicators\": [\n";
  const std::vector<CommKey> comms = comms_by_time();
  for (std::size_t i = 0; i < comms.size(); ++i) {
    const Comm& m = comms_.at(comms[i]);
    out += strprintf(
        "    {\"context\": %d, \"first_rank\": %d, \"name\": %s, \"size\": %d, \"calls\": %llu, "
        "\"bytes\": %lld, \"time\": %s, \"blocked\": %s}%s\n",
        comms[i].first, comms[i].second, json_text(m.name).c_str(), m.size,
        static_cast<unsigned long long>(m.figures.calls), static_cast<long long>(m.figures.bytes),
        m.figures.time.to_decimal().c_str(), m.figures.blocked.to_decimal().c_str(),
        i + 1 < comms.size() ? "," : "");
  }
  out += "  ]\n}\n";
  return out;
}

}  // namespace simmpi::runtime
