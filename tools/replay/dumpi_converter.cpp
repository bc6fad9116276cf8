// SPDX-License-Identifier: Apache-2.0
// DUMPI trace -> call trace (see dumpi_converter.hpp).
#include "tools/replay/dumpi_converter.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <vector>

#include "mpi.h"
#include "runtime/core/error.hpp"
#include "runtime/observe/call_trace_writer.hpp"
#include "tools/replay/dumpi_file.hpp"

namespace simmpi::replay {
namespace {

namespace ct = runtime::call_trace;
using ct::Kind;

// Recorded handles of what DUMPI numbers per rank (call_trace_format.hpp: the replay maps them
// as they are made): outside the range of simmpi's predefined handles.
constexpr std::int64_t kCommBase = 0x7d000000, kRequestBase = 0x7c000000;

// DUMPI's predefined datatypes (dumpi/common/constants.h, from DUMPI_CHAR = 2) as simmpi's;
// MPI_DATATYPE_NULL, MPI_LB and MPI_UB (0 here) carry no data.
constexpr MPI_Datatype kTypes[] = {0,
                                   0,
                                   MPI_CHAR,
                                   MPI_SIGNED_CHAR,
                                   MPI_UNSIGNED_CHAR,
                                   MPI_BYTE,
                                   MPI_WCHAR,
                                   MPI_SHORT,
                                   MPI_UNSIGNED_SHORT,
                                   MPI_INT,
                                   MPI_UNSIGNED,
                                   MPI_LONG,
                                   MPI_UNSIGNED_LONG,
                                   MPI_FLOAT,
                                   MPI_DOUBLE,
                                   MPI_LONG_DOUBLE,
                                   MPI_LONG_LONG_INT,
                                   MPI_UNSIGNED_LONG_LONG,
                                   MPI_LONG_LONG,
                                   MPI_PACKED,
                                   0,
                                   0,
                                   MPI_FLOAT_INT,
                                   MPI_DOUBLE_INT,
                                   MPI_LONG_INT,
                                   MPI_SHORT_INT,
                                   MPI_2INT,
                                   MPI_LONG_DOUBLE_INT};
static_assert(sizeof kTypes / sizeof kTypes[0] == dumpi::kFirstUserDatatype);

// DUMPI's predefined operations (from DUMPI_MAX = 1).
constexpr MPI_Op kOps[] = {0,        MPI_MAX,    MPI_MIN,    MPI_SUM,    MPI_PROD,
                           MPI_LAND, MPI_BAND,   MPI_LOR,    MPI_BOR,    MPI_LXOR,
                           MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE};

std::string base_of(const std::string& meta) {
  const std::string suffix = ".meta";
  if (meta.size() > suffix.size() &&
      meta.compare(meta.size() - suffix.size(), suffix.size(), suffix) == 0)
    return meta.substr(0, meta.size() - suffix.size());
  return meta;
}

int read_rank_count(const std::string& meta) {
  std::ifstream in(meta);
  if (!in) throw DumpiError(meta + ": cannot open it (a DUMPI trace's PREFIX.meta)");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("numprocs=", 0) != 0) continue;
    char* end = nullptr;
    const long n = std::strtol(line.c_str() + 9, &end, 10);
    if (*end || n <= 0)
      throw DumpiError(meta + ": numprocs=" + line.substr(9) + " is not a rank count");
    return static_cast<int>(n);
  }
  throw DumpiError(meta + ": no numprocs= line: not a DUMPI trace's metadata file");
}

// DUMPI's MPI_ANY_SOURCE and MPI_ANY_TAG (-1) as simmpi's.
std::int64_t source_of(std::int64_t s) {
  return s == dumpi::kAnySource ? MPI_ANY_SOURCE : s;
}
std::int64_t tag_of(std::int64_t t) {
  return t == dumpi::kAnyTag ? MPI_ANY_TAG : t;
}

// One rank's records as call-trace records.
class RankConverter {
 public:
  RankConverter(DumpiFile& in, int rank, runtime::CallTraceWriter& out, const ConversionOptions& o,
                ConversionSummary& summary)
      : in_(in), rank_(rank), out_(out), options_(o), summary_(summary) {}
  void run();

 private:
  bool replayable(const DumpiRecord& r, const std::string& name);
  void compute_before(const DumpiRecord& r);
  void put(Kind k, std::initializer_list<std::int64_t> fields);
  void put_array(const std::vector<std::int32_t>& a);
  void put_requests(const std::vector<std::int32_t>& a);
  std::int64_t comm(const DumpiRecord& r, std::int64_t c);
  std::int64_t made_comm(std::int64_t c);
  std::int64_t type(const DumpiRecord& r, std::int64_t t, bool reduction = false);
  std::int64_t op(const DumpiRecord& r, std::int64_t o);
  static std::int64_t request(std::int64_t q) {
    return q == dumpi::kRequestNull ? MPI_REQUEST_NULL : kRequestBase + q;
  }
  // The matched source and tag of a receive or probe: its status's, else its own.
  std::pair<std::int64_t, std::int64_t> matched(const DumpiRecord& r, std::int64_t source,
                                                std::int64_t tag);
  void point_to_point(const DumpiRecord& r, const std::string& name);
  void completion(const DumpiRecord& r, const std::string& name);
  void collective(const DumpiRecord& r, const std::string& name);
  void communicator(const DumpiRecord& r, const std::string& name);

  DumpiFile& in_;
  int rank_;
  runtime::CallTraceWriter& out_;
  const ConversionOptions& options_;
  ConversionSummary& summary_;
  std::set<std::int64_t> comms_{dumpi::kCommWorld, dumpi::kCommSelf};  // made so far
  // Groups from MPI_Comm_group and MPI_Group_incl: whose ranks they are, which of them.
  struct Group {
    std::int64_t comm;
    bool whole;  // all of the communicator's ranks
    std::vector<std::int32_t> ranks;
  };
  std::map<std::int64_t, Group> groups_;
  bool timed_ = false;
  std::int64_t last_stop_ns_ = 0;
};

void RankConverter::put(Kind k, std::initializer_list<std::int64_t> fields) {
  out_.begin(rank_, k);
  for (std::int64_t v : fields) out_.field(rank_, v);
}

void RankConverter::put_array(const std::vector<std::int32_t>& a) {
  out_.field(rank_, static_cast<std::int64_t>(a.size()));
  for (std::int32_t v : a) out_.field(rank_, v);
}

void RankConverter::put_requests(const std::vector<std::int32_t>& a) {
  out_.field(rank_, static_cast<std::int64_t>(a.size()));
  for (std::int32_t v : a) out_.field(rank_, request(v));
}

std::int64_t RankConverter::comm(const DumpiRecord& r, std::int64_t c) {
  if (c == dumpi::kCommWorld) return MPI_COMM_WORLD;
  if (c == dumpi::kCommSelf) return MPI_COMM_SELF;
  if (!comms_.count(c))
    in_.fail(r, strprintf("communicator %lld was not made by an earlier record that simmpi "
                          "replays (MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create)",
                          static_cast<long long>(c)));
  return kCommBase + c;
}

std::int64_t RankConverter::made_comm(std::int64_t c) {
  if (c == dumpi::kCommNull) return MPI_COMM_NULL;
  comms_.insert(c);
  return kCommBase + c;
}

// A predefined datatype as simmpi's; a derived one as its bytes (-1 - size), which reductions
// cannot take.
std::int64_t RankConverter::type(const DumpiRecord& r, std::int64_t t, bool reduction) {
  if (t >= 0 && t < dumpi::kFirstUserDatatype && kTypes[t] != 0) return kTypes[t];
  if (t < dumpi::kFirstUserDatatype)
    in_.fail(r, strprintf("datatype %lld (%s) carries no data", static_cast<long long>(t),
                          t == 20   ? "MPI_LB"
                          : t == 21 ? "MPI_UB"
                                    : "MPI_DATATYPE_NULL"));
  if (reduction) in_.fail(r, "a reduction on a derived datatype is not replayed (not implemented)");
  const std::int64_t size = in_.type_size(static_cast<int>(t));
  if (size < 0)
    in_.fail(r, strprintf("datatype %lld has no size in the trace's table of sizes",
                          static_cast<long long>(t)));
  return -1 - size;
}

std::int64_t RankConverter::op(const DumpiRecord& r, std::int64_t o) {
  if (o >= 1 && o < static_cast<std::int64_t>(sizeof kOps / sizeof kOps[0])) return kOps[o];
  if (o >= dumpi::kFirstUserOp) return ct::kUserOpCommutative;  // DUMPI does not say
  in_.fail(r, strprintf("operation %lld is not an MPI operation", static_cast<long long>(o)));
}

std::pair<std::int64_t, std::int64_t> RankConverter::matched(const DumpiRecord& r,
                                                             std::int64_t source,
                                                             std::int64_t tag) {
  if (!r.statuses.empty()) return {r.statuses[0].source, r.statuses[0].tag};
  // MPI_STATUS_IGNORE (or statuses off): a wildcard stays one, matched by the replay as the
  // program would match it.
  return {source_of(source), tag_of(tag)};
}

int send_mode(const std::string& name) {
  if (name == "MPI_Ssend" || name == "MPI_Issend") return 1;
  if (name == "MPI_Rsend" || name == "MPI_Irsend") return 2;
  return 0;  // buffered sends are timed as standard ones
}

void RankConverter::point_to_point(const DumpiRecord& r, const std::string& name) {
  const auto& v = r.values;
  if (name == "MPI_Send" || name == "MPI_Bsend" || name == "MPI_Ssend" || name == "MPI_Rsend")
    return put(Kind::Send, {send_mode(name), v[0], type(r, v[1]), v[2], v[3], comm(r, v[4])});
  if (name == "MPI_Isend" || name == "MPI_Ibsend" || name == "MPI_Issend" || name == "MPI_Irsend")
    return put(Kind::Isend,
               {send_mode(name), v[0], type(r, v[1]), v[2], v[3], comm(r, v[4]), request(v[5])});
  if (name == "MPI_Irecv")
    return put(Kind::Irecv,
               {v[0], type(r, v[1]), source_of(v[2]), tag_of(v[3]), comm(r, v[4]), request(v[5])});
  if (name == "MPI_Recv") {
    const auto [ms, mt] = matched(r, v[2], v[3]);
    return put(Kind::Recv,
               {v[0], type(r, v[1]), source_of(v[2]), tag_of(v[3]), comm(r, v[4]), ms, mt});
  }
  if (name == "MPI_Sendrecv") {
    const auto [ms, mt] = matched(r, v[6], v[7]);
    return put(Kind::Sendrecv, {v[0], type(r, v[1]), v[2], v[3], v[4], type(r, v[5]),
                                source_of(v[6]), tag_of(v[7]), comm(r, v[8]), ms, mt});
  }
  if (name == "MPI_Sendrecv_replace") {
    const auto [ms, mt] = matched(r, v[4], v[5]);
    return put(Kind::SendrecvReplace, {v[0], type(r, v[1]), v[2], v[3], source_of(v[4]),
                                       tag_of(v[5]), comm(r, v[6]), ms, mt});
  }
  if (name == "MPI_Probe") {
    const auto [ms, mt] = matched(r, v[0], v[1]);
    return put(Kind::Probe, {source_of(v[0]), tag_of(v[1]), comm(r, v[2]), ms, mt});
  }
  // MPI_Iprobe
  put(Kind::Iprobe, {source_of(v[0]), tag_of(v[1]), comm(r, v[2]), v[3] != 0});
}

void RankConverter::completion(const DumpiRecord& r, const std::string& name) {
  const auto& v = r.values;
  if (name == "MPI_Wait") return put(Kind::Wait, {request(v[0])});
  if (name == "MPI_Request_free") return put(Kind::RequestFree, {request(v[0])});
  if (name == "MPI_Test") return put(Kind::Test, {request(v[0]), v[1] != 0});
  const auto& q = r.arrays.at(0);
  const auto index = [](std::int64_t i) { return i < 0 ? std::int64_t{MPI_UNDEFINED} : i; };
  if (name == "MPI_Waitall") {
    out_.begin(rank_, Kind::Waitall);
    return put_requests(q);
  }
  if (name == "MPI_Testall") {
    out_.begin(rank_, Kind::Testall);
    put_requests(q);
    return out_.field(rank_, v[1] != 0);
  }
  if (name == "MPI_Waitany" || name == "MPI_Testany") {
    out_.begin(rank_, name == "MPI_Waitany" ? Kind::Waitany : Kind::Testany);
    put_requests(q);
    out_.field(rank_, index(v[1]));
    if (name == "MPI_Testany") out_.field(rank_, v[2] != 0);
    return;
  }
  // MPI_Waitsome, MPI_Testsome: the indices they completed
  out_.begin(rank_, name == "MPI_Waitsome" ? Kind::Waitsome : Kind::Testsome);
  put_requests(q);
  std::vector<std::int32_t> done = r.arrays.at(1);
  if (v[1] < 0) done.clear();  // MPI_UNDEFINED: no active request
  put_array(done);
}

void RankConverter::collective(const DumpiRecord& r, const std::string& name) {
  const auto& v = r.values;
  const std::int64_t none = ct::kNoRequest;
  if (name == "MPI_Barrier") return put(Kind::Barrier, {comm(r, v[0]), none});
  if (name == "MPI_Bcast")
    return put(Kind::Bcast, {v[0], type(r, v[1]), v[2], comm(r, v[3]), none});
  if (name == "MPI_Reduce")
    return put(Kind::Reduce,
               {0, v[0], type(r, v[1], true), op(r, v[2]), v[3], comm(r, v[4]), none});
  if (name == "MPI_Allreduce" || name == "MPI_Scan" || name == "MPI_Exscan") {
    const Kind k = name == "MPI_Allreduce" ? Kind::Allreduce
                   : name == "MPI_Scan"    ? Kind::Scan
                                           : Kind::Exscan;
    return put(k, {0, v[0], type(r, v[1], true), op(r, v[2]), comm(r, v[3]), none});
  }
  if (name == "MPI_Reduce_scatter") {
    const auto& counts = r.arrays.at(0);
    for (std::int32_t c : counts)
      if (c != counts.at(0))
        in_.fail(r, "MPI_Reduce_scatter with unequal counts is not replayed (not implemented)");
    return put(Kind::ReduceScatterBlock, {0, counts.empty() ? 0 : counts[0], type(r, v[1], true),
                                          op(r, v[2]), comm(r, v[3]), none});
  }
  if (name == "MPI_Allgather" || name == "MPI_Alltoall")
    return put(name == "MPI_Allgather" ? Kind::Allgather : Kind::Alltoall,
               {0, v[0], type(r, v[1]), v[2], type(r, v[3]), comm(r, v[4]), none});
  // Rooted: DUMPI writes the root's own arguments only at the root (elsewhere the receive type
  // of a gatherv is 0, which no replay reads: the rank's own type stands in).
  if (name == "MPI_Gather") {  // rank scount stype root comm [rcount rtype]
    const bool root = v[0] == v[3];
    return put(Kind::Gather, {0, v[1], type(r, v[2]), root ? v[5] : v[1],
                              root ? type(r, v[6]) : type(r, v[2]), v[3], comm(r, v[4]), none});
  }
  if (name == "MPI_Scatter") {  // rank rcount rtype root comm [scount stype]
    const bool root = v[0] == v[3];
    return put(Kind::Scatter, {0, root ? v[5] : v[1], root ? type(r, v[6]) : type(r, v[2]), v[1],
                               type(r, v[2]), v[3], comm(r, v[4]), none});
  }
  if (name == "MPI_Allgatherv") {  // size scount stype [rcounts displs] rtype comm
    out_.begin(rank_, Kind::Allgatherv);
    for (std::int64_t x : {std::int64_t{0}, v[1], type(r, v[2])}) out_.field(rank_, x);
    put_array(r.arrays.at(0));
    put_array(r.arrays.at(1));
    for (std::int64_t x : {type(r, v[3]), comm(r, v[4]), none}) out_.field(rank_, x);
    return;
  }
  if (name == "MPI_Alltoallv") {  // size [scounts sdispls] stype [rcounts rdispls] rtype comm
    out_.begin(rank_, Kind::Alltoallv);
    out_.field(rank_, 0);
    put_array(r.arrays.at(0));
    put_array(r.arrays.at(1));
    out_.field(rank_, type(r, v[1]));
    put_array(r.arrays.at(2));
    put_array(r.arrays.at(3));
    for (std::int64_t x : {type(r, v[2]), comm(r, v[3]), none}) out_.field(rank_, x);
    return;
  }
  if (name == "MPI_Gatherv") {  // rank size scount stype root comm [rcounts displs] rtype
    out_.begin(rank_, Kind::Gatherv);
    for (std::int64_t x : {std::int64_t{0}, v[2], type(r, v[3])}) out_.field(rank_, x);
    put_array(r.arrays.at(0));
    put_array(r.arrays.at(1));
    const std::int64_t rtype = v[0] == v[4] ? type(r, v[6]) : type(r, v[3]);
    for (std::int64_t x : {rtype, v[4], comm(r, v[5]), none}) out_.field(rank_, x);
    return;
  }
  // MPI_Scatterv: rank size stype rcount rtype root comm [scounts displs]
  out_.begin(rank_, Kind::Scatterv);
  out_.field(rank_, 0);
  put_array(r.arrays.at(0));
  put_array(r.arrays.at(1));
  const std::int64_t stype = v[0] == v[5] || v[2] != 0 ? type(r, v[2]) : type(r, v[4]);
  for (std::int64_t x : {stype, v[3], type(r, v[4]), v[5], comm(r, v[6]), none})
    out_.field(rank_, x);
}

void RankConverter::communicator(const DumpiRecord& r, const std::string& name) {
  const auto& v = r.values;
  if (name == "MPI_Comm_dup") return put(Kind::CommDup, {comm(r, v[0]), made_comm(v[1])});
  if (name == "MPI_Comm_split") {
    const std::int64_t color = v[1], key = v[2], made = v[3];
    return put(Kind::CommSplit, {comm(r, v[0]), made == dumpi::kCommNull ? MPI_UNDEFINED : color,
                                 key, made_comm(made)});
  }
  if (name == "MPI_Comm_free") {
    put(Kind::CommFree, {comm(r, v[0])});
    comms_.erase(v[0]);
    return;
  }
  if (name == "MPI_Comm_group") {  // comm group: all of the communicator's ranks
    groups_[v[1]] = Group{v[0], true, {}};
    return;
  }
  if (name == "MPI_Group_incl") {  // group count [ranks] newgroup
    auto g = groups_.find(v[0]);
    if (g == groups_.end()) {
      groups_.erase(v[2]);  // of a group made otherwise: MPI_Comm_create from it is refused
      return;
    }
    Group made{g->second.comm, false, {}};
    for (std::int32_t i : r.arrays.at(0)) {
      if (!g->second.whole && (i < 0 || static_cast<std::size_t>(i) >= g->second.ranks.size()))
        in_.fail(r, strprintf("rank %d is not in group %lld", i, static_cast<long long>(v[0])));
      made.ranks.push_back(g->second.whole ? i : g->second.ranks[static_cast<std::size_t>(i)]);
    }
    groups_[v[2]] = made;
    return;
  }
  // MPI_Comm_create: comm group newcomm, from a group of the same communicator's ranks
  auto g = groups_.find(v[1]);
  if (g == groups_.end() || g->second.comm != v[0] || g->second.whole)
    in_.fail(r,
             "MPI_Comm_create from a group that is not MPI_Group_incl of the same "
             "communicator's group is not replayed (not implemented)");
  out_.begin(rank_, Kind::CommCreate);
  out_.field(rank_, comm(r, v[0]));
  put_array(g->second.ranks);
  out_.field(rank_, made_comm(v[2]));
}

// The calls the replay makes, or lets time pass at (local calls).
bool RankConverter::replayable(const DumpiRecord& r, const std::string& name) {
  static const std::set<std::string> kPointToPoint = {
      "MPI_Send",   "MPI_Bsend",  "MPI_Ssend", "MPI_Rsend", "MPI_Isend",    "MPI_Ibsend",
      "MPI_Issend", "MPI_Irsend", "MPI_Irecv", "MPI_Recv",  "MPI_Sendrecv", "MPI_Sendrecv_replace",
      "MPI_Probe",  "MPI_Iprobe"};
  static const std::set<std::string> kCompletions = {
      "MPI_Wait",    "MPI_Test",    "MPI_Request_free", "MPI_Waitall", "MPI_Testall",
      "MPI_Waitany", "MPI_Testany", "MPI_Waitsome",     "MPI_Testsome"};
  static const std::set<std::string> kCollectives = {
      "MPI_Barrier", "MPI_Bcast",          "MPI_Reduce",    "MPI_Allreduce", "MPI_Scan",
      "MPI_Exscan",  "MPI_Reduce_scatter", "MPI_Allgather", "MPI_Alltoall",  "MPI_Gather",
      "MPI_Scatter", "MPI_Allgatherv",     "MPI_Alltoallv", "MPI_Gatherv",   "MPI_Scatterv"};
  static const std::set<std::string> kCommunicators = {"MPI_Comm_dup", "MPI_Comm_split",
                                                       "MPI_Comm_free", "MPI_Comm_create"};
  if (r.thread != 0) return false;  // a rank's own threads' calls
  if (name == "MPI_Init" || name == "MPI_Init_thread") return put(Kind::Init, {}), true;
  if (name == "MPI_Finalize") return put(Kind::Finalize, {}), true;
  if (kPointToPoint.count(name)) return point_to_point(r, name), true;
  if (kCompletions.count(name)) return completion(r, name), true;
  if (kCollectives.count(name)) return collective(r, name), true;
  if (kCommunicators.count(name)) return communicator(r, name), true;
  if (name == "MPI_Group_incl") communicator(r, name);  // and local, below
  if (name == "MPI_Comm_group") communicator(r, name);
  if (!ct::is_local_call(name)) return false;
  out_.begin(rank_, Kind::Untraced);
  out_.text(rank_, name);
  return true;
}

// The wall-clock time since the end of the last call replayed, times the compute scale.
void RankConverter::compute_before(const DumpiRecord& r) {
  if (!r.timed) return;
  if (timed_ && r.start_ns > last_stop_ns_) {
    const double seconds = static_cast<double>(r.start_ns - last_stop_ns_) * 1e-9;
    const auto ps =
        static_cast<std::int64_t>(std::llround(seconds * options_.compute_scale * 1e12));
    if (ps > 0) put(Kind::Sleep, {ps});
  }
}

void RankConverter::run() {
  DumpiRecord r;
  while (in_.next(r)) {
    const std::string name = DumpiFile::name(r.label);
    // Function entries and exits (compiler instrumentation) are not MPI calls: their time is
    // the program's own.
    if (name == "Function_enter" || name == "Function_exit") continue;
    compute_before(r);
    if (!replayable(r, name)) {
      const std::string what =
          r.thread != 0 ? strprintf("a call from the rank's thread %d", r.thread) : name;
      if (!options_.skip_unknown)
        in_.fail(r, what +
                        " cannot be replayed (not implemented); --skip-unknown skips such "
                        "records");
      ++summary_.skipped[r.thread != 0 ? "threads' calls" : name];
      continue;  // its measured time passes, as compute, before the next call
    }
    if (r.timed) {
      timed_ = true;
      last_stop_ns_ = r.stop_ns;
    }
  }
}

}  // namespace

ConversionSummary convert_dumpi(const std::string& meta, const std::string& directory,
                                const ConversionOptions& options) {
  ConversionSummary summary;
  summary.ranks = read_rank_count(meta);
  const std::string base = base_of(meta);
  // Every rank's file is there and readable before anything is written.
  std::vector<std::string> paths;
  for (int rank = 0; rank < summary.ranks; ++rank) {
    paths.push_back(strprintf("%s-%04d.bin", base.c_str(), rank));
    std::ifstream probe(paths.back());
    if (!probe)
      throw DumpiError(strprintf("%s: numprocs=%d, but rank %d's file %s cannot be opened",
                                 meta.c_str(), summary.ranks, rank, paths.back().c_str()));
  }
  try {
    runtime::CallTraceWriter out(directory, "the trace directory", summary.ranks);
    for (int rank = 0; rank < summary.ranks; ++rank) {
      DumpiFile in(paths[static_cast<std::size_t>(rank)], rank);
      RankConverter(in, rank, out, options, summary).run();
    }
    std::string error;
    if (!out.finish(&error)) throw DumpiError(error);
    summary.records = out.records();
  } catch (const ConfigError& e) {
    throw DumpiError(e.what());
  }
  return summary;
}

}  // namespace simmpi::replay
