// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/otf2_trace.hpp"

#include <otf2/otf2.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

constexpr std::uint32_t kWorld = 0;    // the one communicator defined: world ranks
constexpr std::uint32_t kOwnCode = 0;  // region 0
// Counter track i's location: after every rank's and thread's (rank + ordinal * ranks).
constexpr std::uint64_t kFirstCounterLocation = std::uint64_t{1} << 48;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}
OTF2_FlushCallbacks flush_callbacks = {&pre_flush, &post_flush};

// The collective operation of a blocking collective named `name`, or -1.
int collective_op(const char* name) {
  static const std::pair<const char*, int> ops[] = {
      {"MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER},
      {"MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST},
      {"MPI_Gather", OTF2_COLLECTIVE_OP_GATHER},
      {"MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV},
      {"MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER},
      {"MPI_Scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
      {"MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER},
      {"MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
      {"MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL},
      {"MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
      {"MPI_Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW},
      {"MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
      {"MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE},
      {"MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
      {"MPI_Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
      {"MPI_Scan", OTF2_COLLECTIVE_OP_SCAN},
      {"MPI_Exscan", OTF2_COLLECTIVE_OP_EXSCAN},
  };
  for (const auto& [n, op] : ops)
    if (std::strcmp(n, name) == 0) return op;
  return -1;
}

std::uint64_t stamp(SimTime t) {
  return static_cast<std::uint64_t>(t.ps());
}

}  // namespace

Otf2Trace::Otf2Trace(const std::string& directory, const char* key, std::vector<int> node_of_rank,
                     TimelineScope scope)
    : node_of_rank_(std::move(node_of_rank)), scope_(std::move(scope)) {
  struct stat st;
  if (::stat(directory.c_str(), &st) == 0)
    throw ConfigError(
        strprintf("%s = \"%s\": it exists, and an OTF2 archive is never written "
                  "over; remove it or choose another path",
                  key, directory.c_str()));
  if (::mkdir(directory.c_str(), 0777) != 0)
    throw ConfigError(
        strprintf("%s = \"%s\": cannot create the archive's directory (%s); choose "
                  "a writable path",
                  key, directory.c_str(), std::strerror(errno)));
  archive_ = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE,
                               OTF2_CHUNK_SIZE_MIN, OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                               OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive_)
    throw ConfigError(strprintf("%s = \"%s\": the OTF2 library cannot create an archive there", key,
                                directory.c_str()));
  check(OTF2_Archive_SetFlushCallbacks(archive_, &flush_callbacks, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
  check(OTF2_Archive_SetCreator(archive_, "simmpi"), "creator");
  check(OTF2_Archive_OpenEvtFiles(archive_), "opening the event files");
  region_id("own code");  // kOwnCode
}

Otf2Trace::~Otf2Trace() {
  if (archive_) OTF2_Archive_Close(archive_);
}

void Otf2Trace::check(int status, const char* what) {
  if (status != OTF2_SUCCESS && error_.empty())
    error_ = strprintf("%s: %s (%s)", what, OTF2_Error_GetName(static_cast<OTF2_ErrorCode>(status)),
                       OTF2_Error_GetDescription(static_cast<OTF2_ErrorCode>(status)));
}

std::uint32_t Otf2Trace::string_id(const std::string& s) {
  auto [it, added] = strings_.emplace(s, static_cast<std::uint32_t>(string_order_.size()));
  if (added) string_order_.push_back(s);
  return it->second;
}

std::uint32_t Otf2Trace::region_id(const char* name) {
  auto [it, added] = regions_.emplace(name, static_cast<std::uint32_t>(region_order_.size()));
  if (added) region_order_.push_back(name);
  return it->second;
}

const Otf2Trace::Region& Otf2Trace::region_of(const char* name) {
  auto it = region_by_address_.find(name);
  if (it == region_by_address_.end())
    it = region_by_address_.emplace(name, Region{region_id(name), collective_op(name)}).first;
  return it->second;
}

// Location ids: a rank's own fiber is its rank; its k-th thread rank + k * ranks.
Otf2Trace::Lane& Otf2Trace::lane(int rank, int ordinal) {
  const std::uint64_t id =
      static_cast<std::uint64_t>(rank) + static_cast<std::uint64_t>(ordinal) * node_of_rank_.size();
  Lane& l = lanes_[id];
  if (!l.writer) {
    l.writer = OTF2_Archive_GetEvtWriter(archive_, id);
    l.rank = rank;
    l.ordinal = ordinal;
    if (!l.writer) check(OTF2_ERROR_MEM_ALLOC_FAILED, "an event writer");
  }
  return l;
}

void Otf2Trace::own_code(Lane& l, SimTime begin, SimTime end) {
  if (!scope_.clip_own_code(begin, end) || !l.writer) return;
  events_ += 2;
  check(OTF2_EvtWriter_Enter(l.writer, nullptr, stamp(begin), kOwnCode), "an event");
  check(OTF2_EvtWriter_Leave(l.writer, nullptr, stamp(end), kOwnCode), "an event");
}

void Otf2Trace::call(const CallFacts& f) {
  if (!scope_.shows(f.rank) || scope_.full(events_, f.begin)) return;
  Lane& l = lane(f.rank, f.ordinal);
  own_code(l, l.last_end, f.begin);
  l.last_end = f.end;
  if (!scope_.meets(f.begin, f.end) || !l.writer) return;
  latest_ = max(latest_, f.end);
  OTF2_EvtWriter* w = l.writer;
  const Region& called = region_of(f.name);
  const std::uint32_t region = called.id;
  events_ += 2 + (f.sent ? f.sent->size() : 0) + (f.received ? f.received->size() : 0);
  check(OTF2_EvtWriter_Enter(w, nullptr, stamp(f.begin), region), "an event");
  // Messages on the world communicator, in world ranks: the application's only (a collective's
  // own messages are inside its collective record, as MPI tools show them).
  if (f.sent)
    for (const MessageLink& m : *f.sent)
      if (!m.internal && scope_.shows(m.rank))
        check(OTF2_EvtWriter_MpiSend(w, nullptr, stamp(f.begin), static_cast<std::uint32_t>(m.rank),
                                     kWorld, static_cast<std::uint32_t>(m.tag), m.bytes),
              "an event");
  const int op = called.collective_op;
  const bool world_collective = op >= 0 && f.comm_context >= 0 && f.comm_leader == 0 &&
                                f.comm_size == static_cast<int>(node_of_rank_.size());
  if (world_collective) {
    check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, stamp(f.begin)), "an event");
    const std::uint64_t bytes = f.bytes > 0 ? static_cast<std::uint64_t>(f.bytes) : 0;
    check(
        OTF2_EvtWriter_MpiCollectiveEnd(
            w, nullptr, stamp(f.end), static_cast<OTF2_CollectiveOp>(op), kWorld,
            f.peer >= 0 ? static_cast<std::uint32_t>(f.peer) : OTF2_UNDEFINED_UINT32, bytes, bytes),
        "an event");
  }
  if (f.received)
    for (const MessageLink& m : *f.received)
      if (!m.internal && scope_.shows(m.rank))
        check(OTF2_EvtWriter_MpiRecv(w, nullptr, stamp(f.end), static_cast<std::uint32_t>(m.rank),
                                     kWorld, static_cast<std::uint32_t>(m.tag), m.bytes),
              "an event");
  check(OTF2_EvtWriter_Leave(w, nullptr, stamp(f.end), region), "an event");
}

std::int64_t Otf2Trace::write_counter_events() {
  std::int64_t events = 0;
  for (std::size_t i = 0; i < counters_.size(); ++i) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive_, kFirstCounterLocation + i);
    if (!w) {
      check(OTF2_ERROR_MEM_ALLOC_FAILED, "an event writer");
      return events;
    }
    const CounterTrack& c = counters_[i];
    events += static_cast<std::int64_t>(c.values.size());
    const OTF2_Type type = OTF2_TYPE_DOUBLE;
    for (std::size_t k = 0; k < c.values.size(); ++k) {
      OTF2_MetricValue value;
      value.floating_point = c.values[k];
      check(OTF2_EvtWriter_Metric(w, nullptr, stamp(c.step * static_cast<std::int64_t>(k)),
                                  static_cast<std::uint32_t>(i), 1, &type, &value),
            "an event");
      latest_ = max(latest_, c.step * static_cast<std::int64_t>(k));
    }
    check(OTF2_Archive_CloseEvtWriter(archive_, w), "closing an event writer");
  }
  return events;
}

std::int64_t Otf2Trace::finish(const std::vector<SimTime>& end, std::string* error) {
  for (auto& [id, l] : lanes_) {
    if (l.ordinal == 0 && static_cast<std::size_t>(l.rank) < end.size()) {
      own_code(l, l.last_end, end[static_cast<std::size_t>(l.rank)]);
      latest_ = max(latest_, std::min(end[static_cast<std::size_t>(l.rank)], scope_.to()));
    }
  }
  std::int64_t events = write_counter_events();
  std::map<std::uint64_t, std::uint64_t> events_of;
  for (auto& [id, l] : lanes_) {
    std::uint64_t n = 0;
    if (l.writer) {
      check(OTF2_EvtWriter_GetNumberOfEvents(l.writer, &n), "counting events");
      check(OTF2_Archive_CloseEvtWriter(archive_, l.writer), "closing an event writer");
    }
    events_of[id] = n;
    events += static_cast<std::int64_t>(n);
  }
  check(OTF2_Archive_CloseEvtFiles(archive_), "closing the event files");
  // Every location needs its (empty) local definitions file.
  check(OTF2_Archive_OpenDefFiles(archive_), "opening the definition files");
  for (const auto& [id, l] : lanes_) {
    OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive_, id);
    if (d) check(OTF2_Archive_CloseDefWriter(archive_, d), "closing a definition writer");
  }
  for (std::size_t i = 0; i < counters_.size(); ++i) {
    OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive_, kFirstCounterLocation + i);
    if (d) check(OTF2_Archive_CloseDefWriter(archive_, d), "closing a definition writer");
  }
  check(OTF2_Archive_CloseDefFiles(archive_), "closing the definition files");

  const int ranks = static_cast<int>(node_of_rank_.size());
  // Names first: every string a definition below refers to.
  const std::uint32_t s_machine = string_id("simmpi machine"), s_node_class = string_id("node"),
                      s_machine_class = string_id("machine"), s_world = string_id("MPI_COMM_WORLD"),
                      s_empty = string_id("");
  std::vector<std::uint32_t> s_nodes, s_ranks;
  int nodes = 0;
  for (int n : node_of_rank_) nodes = std::max(nodes, n + 1);
  for (int n = 0; n < nodes; ++n) s_nodes.push_back(string_id(strprintf("node %d", n)));
  for (int r = 0; r < ranks; ++r) s_ranks.push_back(string_id(strprintf("rank %d", r)));
  std::map<std::uint64_t, std::uint32_t> s_locations;
  for (const auto& [id, l] : lanes_)
    s_locations[id] = l.ordinal == 0 ? s_ranks[static_cast<std::size_t>(l.rank)]
                                     : string_id(strprintf("rank %d thread %d", l.rank, l.ordinal));
  const std::uint32_t s_counter_group = string_id(counter_group_),
                      s_utilization =
                          string_id("utilization (0 to 1) over the bin that begins here");
  std::vector<std::uint32_t> s_counters;
  for (const CounterTrack& c : counters_) s_counters.push_back(string_id(c.name));
  std::vector<std::uint32_t> s_regions;
  for (const std::string& r : region_order_) s_regions.push_back(string_id(r));

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!g) check(OTF2_ERROR_MEM_ALLOC_FAILED, "the global definition writer");
  if (g) {
    check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000000ull, 0, stamp(latest_),
                                                    OTF2_UNDEFINED_TIMESTAMP),
          "a definition");
    for (std::size_t i = 0; i < string_order_.size(); ++i)
      check(OTF2_GlobalDefWriter_WriteString(g, static_cast<std::uint32_t>(i),
                                             string_order_[i].c_str()),
            "a definition");
    for (std::size_t i = 0; i < region_order_.size(); ++i)
      check(OTF2_GlobalDefWriter_WriteRegion(
                g, static_cast<std::uint32_t>(i), s_regions[i], s_regions[i], s_empty,
                i == kOwnCode ? OTF2_REGION_ROLE_CODE : OTF2_REGION_ROLE_FUNCTION,
                i == kOwnCode ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE,
                s_empty, 0, 0),
            "a definition");
    // System tree: the machine (0), its nodes (1 + n).
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_machine, s_machine_class,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "a definition");
    for (int n = 0; n < nodes; ++n)
      check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, static_cast<std::uint32_t>(1 + n),
                                                     s_nodes[static_cast<std::size_t>(n)],
                                                     s_node_class, 0),
            "a definition");
    // Every rank is a process, shown or not: MPI ranks must all exist for the communicator.
    for (int r = 0; r < ranks; ++r)
      check(OTF2_GlobalDefWriter_WriteLocationGroup(
                g, static_cast<std::uint32_t>(r), s_ranks[static_cast<std::size_t>(r)],
                OTF2_LOCATION_GROUP_TYPE_PROCESS,
                static_cast<std::uint32_t>(1 + node_of_rank_[static_cast<std::size_t>(r)]),
                OTF2_UNDEFINED_LOCATION_GROUP),
            "a definition");
    for (int r = 0; r < ranks; ++r) {
      const std::uint64_t id = static_cast<std::uint64_t>(r);
      if (lanes_.count(id)) continue;  // written below with its events
      check(OTF2_GlobalDefWriter_WriteLocation(g, id, s_ranks[static_cast<std::size_t>(r)],
                                               OTF2_LOCATION_TYPE_CPU_THREAD, 0,
                                               static_cast<std::uint32_t>(r)),
            "a definition");
    }
    for (const auto& [id, l] : lanes_)
      check(
          OTF2_GlobalDefWriter_WriteLocation(g, id, s_locations[id], OTF2_LOCATION_TYPE_CPU_THREAD,
                                             events_of[id], static_cast<std::uint32_t>(l.rank)),
          "a definition");
    // The counter tracks: location group `ranks` (after every rank's) under the machine, a
    // metric location, member and class per track (member i belongs to class i).
    if (!counters_.empty()) {
      const auto group = static_cast<std::uint32_t>(ranks);
      check(OTF2_GlobalDefWriter_WriteLocationGroup(g, group, s_counter_group,
                                                    OTF2_LOCATION_GROUP_TYPE_UNKNOWN, 0,
                                                    OTF2_UNDEFINED_LOCATION_GROUP),
            "a definition");
      for (std::size_t i = 0; i < counters_.size(); ++i) {
        const auto id = static_cast<std::uint32_t>(i);
        check(OTF2_GlobalDefWriter_WriteMetricMember(
                  g, id, s_counters[i], s_utilization, OTF2_METRIC_TYPE_OTHER,
                  OTF2_METRIC_ABSOLUTE_NEXT, OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0, s_empty),
              "a definition");
        check(OTF2_GlobalDefWriter_WriteMetricClass(g, id, 1, &id, OTF2_METRIC_ASYNCHRONOUS,
                                                    OTF2_RECORDER_KIND_ABSTRACT),
              "a definition");
        check(OTF2_GlobalDefWriter_WriteLocation(g, kFirstCounterLocation + i, s_counters[i],
                                                 OTF2_LOCATION_TYPE_METRIC,
                                                 counters_[i].values.size(), group),
              "a definition");
      }
    }
    // MPI_COMM_WORLD: group 0 lists the ranks' locations (MPI rank i is member i), group 1 is
    // the communicator's ranks.
    std::vector<std::uint64_t> members(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
      members[static_cast<std::size_t>(r)] = static_cast<std::uint64_t>(r);
    check(OTF2_GlobalDefWriter_WriteGroup(g, 0, s_empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<std::uint32_t>(ranks), members.data()),
          "a definition");
    check(OTF2_GlobalDefWriter_WriteGroup(g, 1, s_world, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<std::uint32_t>(ranks), members.data()),
          "a definition");
    check(OTF2_GlobalDefWriter_WriteComm(g, kWorld, s_world, 1, OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          "a definition");
  }
  check(OTF2_Archive_Close(archive_), "closing the archive");
  archive_ = nullptr;
  if (!error_.empty()) {
    *error = error_;
    return -1;
  }
  return events;
}

}  // namespace simmpi::runtime
