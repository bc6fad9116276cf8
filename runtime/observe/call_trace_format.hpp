// SPDX-License-Identifier: Apache-2.0
// The call trace a run records (report.record, CallTraceRecorder) and simmpi-replay reads: per
// rank, the sequence of its MPI calls with what a simulation needs, and its compute between them.
// This header is the format's one definition (docs/replay.md describes it for people).
//
// A trace is a directory: `simtrace.txt` (a text line per fact: format, version, ranks) and one
// file per rank, `rank-<r>.simtrace`:
//
//   header   8 bytes magic "SIMTRACE", u32 version, u32 rank, u32 ranks (little-endian)
//   chunks   u32 raw bytes, u32 compressed bytes, then one zstd frame of the raw bytes
//
// The raw bytes of the chunks, concatenated, are the records. A record is its kind (a varint)
// and then the fields its layout names (kLayouts), each a zigzag varint: 'i' an integer, 'a' an
// array (its length, then the elements), 's' a string (its length, then one varint per byte),
// 'd' a double (its IEEE bits as an integer). Chunks hold whole records, at most kChunkBytes of
// them, so memory per rank stays bounded while recording and replaying. Every rank's records end
// with one End record: a file without it is truncated.
//
// Handles (communicators, requests) are the recording run's values: the replay maps them to its
// own as they are created. A datatype is its predefined handle (>= 0), or -1 - size for a derived
// type (replayed as that many contiguous bytes); an operation its predefined handle, or
// kUserOpCommutative / kUserOpNoncommutative. A blocking call's request field is kNoRequest.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace simmpi::runtime::call_trace {

inline constexpr char kMagic[8] = {'S', 'I', 'M', 'T', 'R', 'A', 'C', 'E'};
// Version 2 appended the kinds from SendInit on, version 3 those from Mprobe on, version 4
// those from BufferAttach on, version 5 those from CartCreate on, version 6 those from CommIdup
// on; an older trace is read as it is (kKindsOfVersion says which kinds a file of each version
// may hold).
inline constexpr std::uint32_t kVersion = 6;
inline constexpr std::uint32_t kOldestVersion = 1;
inline constexpr std::size_t kHeaderBytes = 20;
inline constexpr std::size_t kChunkBytes = 64 * 1024;
inline constexpr std::int64_t kNoRequest = -1;
inline constexpr std::int64_t kUserOpCommutative = -1;
inline constexpr std::int64_t kUserOpNoncommutative = -2;

// The kinds of record. Append only: a kind's number and layout never change within a version.
enum class Kind : std::uint8_t {
  End,
  Kernel,    // names a compute kernel id for the Compute records after it (in this file)
  Compute,   // modeled compute (BLAS, SIMMPI_COMPUTE): retimed on the replay's platform
  Sleep,     // time that passes as it is: SIMMPI_SLEEP, measured own code
  Untraced,  // a call the replay makes no call for (local) or cannot make (is_local_call)
  Init,
  Finalize,
  Send,
  Isend,
  Recv,
  Irecv,
  Sendrecv,
  SendrecvReplace,
  Probe,
  Iprobe,
  Wait,
  Waitall,
  Waitany,
  Waitsome,
  Test,
  Testall,
  Testany,
  Testsome,
  RequestFree,
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Gather,
  Scatter,
  Allgather,
  Alltoall,
  ReduceScatterBlock,
  Scan,
  Exscan,
  Allgatherv,
  Alltoallv,
  Gatherv,
  Scatterv,
  CommDup,
  CommSplit,
  CommCreate,
  CommFree,
  PollRounds,
  IprobeLoop,  // consecutive MPI_Iprobe calls of one target (CallTraceRecorder folds them)
  SendInit,    // version 2 on
  RecvInit,
  Start,
  Startall,
  ReduceScatter,
  Alltoallw,
  Mprobe,  // version 3 on
  Improbe,
  Mrecv,
  Imrecv,
  BufferAttach,  // version 4 on
  BufferDetach,
  CartCreate,  // version 5 on
  CartSub,
  GraphCreate,
  DistGraphCreateAdjacent,
  DistGraphCreate,
  NeighborAllgather,
  NeighborAllgatherv,
  NeighborAlltoall,
  NeighborAlltoallv,
  NeighborAlltoallw,
  Cancel,
  IntercommCreate,
  IntercommMerge,
  CommCreateGroup,
  WinCreate,  // one-sided communication
  WinFree,
  RmaOperation,
  WinFence,
  WinLock,
  WinUnlock,
  WinLockAll,
  WinUnlockAll,
  WinFlush,
  WinFlushAll,
  WinFlushLocal,
  WinFlushLocalAll,
  WinSync,
  WinPost,
  WinStart,
  WinComplete,
  WinWait,
  WinTest,
  // The persistent collectives (MPI_<collective>_init): the fields of the nonblocking form, the
  // request made (kPersistentCollectives pairs each with its collective's kind).
  BarrierInit,
  BcastInit,
  ReduceInit,
  AllreduceInit,
  GatherInit,
  ScatterInit,
  AllgatherInit,
  AlltoallInit,
  ReduceScatterBlockInit,
  ScanInit,
  ExscanInit,
  AllgathervInit,
  AlltoallvInit,
  GathervInit,
  ScattervInit,
  ReduceScatterInit,
  AlltoallwInit,
  NeighborAllgatherInit,
  NeighborAllgathervInit,
  NeighborAlltoallInit,
  NeighborAlltoallvInit,
  NeighborAlltoallwInit,
  PartitionedInit,  // appended to version 5 after the kinds above had landed
  Pready,
  Parrived,
  GrequestStart,
  GrequestComplete,
  CommIdup,      // version 6 on
  CommIdupMade,  // the communicator an MPI_Comm_idup made (see below)
  CommCreateFromGroup,
  IntercommCreateFromGroups,
  SessionInit,
  SessionFinalize,
  Count  // not a kind: the number of kinds
};

struct Layout {
  const char* name;    // the call, for messages
  const char* fields;  // one letter per field (see the top of this file)
  const char* names;   // the fields' names, space-separated, for docs/replay.md and messages
};

// An MPI_Iprobe loop: `failed` fruitless MPI_Iprobe calls of one (source, tag, comm) back to
// back, nothing between them, then (found = 1) the one that found a message, or (found = 0)
// something else. Replayed as "poll until found" (re-timed on the replay's platform) or as that
// many fruitless polls.
//
// Send modes: 0 standard, 1 synchronous, 2 ready, 3 buffered. `inplace`: the call passed
// MPI_IN_PLACE. Receives and probes record the source and tag they matched (msrc, mtag).
// Collectives' v-forms record counts and displacements in elements of their type.
// MPI_Alltoallw records a type per peer (an array of types as above) and no displacements: they
// are bytes of the program's buffers, which the replay lays out one block after the other.
// Persistent requests: MPI_(S|R|B)send_init and MPI_Recv_init record what the nonblocking call
// would and the request made; MPI_Start(all) the requests started; the Wait and Test records
// complete them as they do any request. Matched probes record the message handle they made
// (MPI_MESSAGE_NULL when MPI_Improbe found none) and the receives the handle they took.
// Topologies record how the communicator was made (what the constructor was given; the weights
// of a distributed graph only when `weighted`, as MPI_UNWEIGHTED passes none); neighbourhood
// collectives their counts and types as the all-to-all(v, w) forms do (MPI_Neighbor_alltoallw
// no displacements), and the uniform forms the caller's in- and out-degree, which size their
// buffers. One-sided communication: a window's constructor records its flavor
// (MPI_WIN_FLAVOR_CREATE, _ALLOCATE or _SHARED; a dynamic window is not recorded: its
// displacements are the program's addresses), its part's size and displacement unit; every
// communication call is one RmaOperation record whose `call` indexes kRmaCalls (an absent
// buffer's type is MPI_DATATYPE_NULL); MPI_Win_post and _start record their group as ranks of
// the window's group. Partitioned requests: MPI_Psend_init and MPI_Precv_init are one kind
// (`send` 1 or 0); MPI_Pready, _range and _list one (`form` 0, 1 or 2) with the partitions
// marked. A generalized request records the request made (the replay's callbacks do nothing)
// and when the program completed it. MPI_Intercomm_create records the peer communicator at the
// local leader only (the others' is not significant: MPI_COMM_NULL).
// MPI_Comm_idup records the request it made; the communicator it makes is known only when that
// request completes, so the first recorded call of the rank that ends after its completion is
// followed by a CommIdupMade record (request, newcomm): the replay maps the recorded handle to
// the communicator its own MPI_Comm_idup makes for that request, which is there by the time the
// program can use it (after its wait). The sessions' constructors record their groups as world
// ranks (the members of mpi://WORLD), with the string tag; MPI_Session_init and _finalize the
// session, which the replay opens and closes at the same points.
inline constexpr Layout kLayouts[] = {
    {"End", "", ""},
    {"Kernel", "is", "id name"},
    {"Compute", "iddiiii", "kernel ops bytes m n k time_ps"},
    {"Sleep", "i", "time_ps"},
    {"Untraced", "s", "call"},
    {"MPI_Init", "", ""},
    {"MPI_Finalize", "", ""},
    {"MPI_Send", "iiiiii", "mode count type dest tag comm"},
    {"MPI_Isend", "iiiiiii", "mode count type dest tag comm request"},
    {"MPI_Recv", "iiiiiii", "count type source tag comm msrc mtag"},
    {"MPI_Irecv", "iiiiii", "count type source tag comm request"},
    {"MPI_Sendrecv", "iiiiiiiiiii",
     "scount stype dest stag rcount rtype source rtag comm msrc mtag"},
    {"MPI_Sendrecv_replace", "iiiiiiiii", "count type dest stag source rtag comm msrc mtag"},
    {"MPI_Probe", "iiiii", "source tag comm msrc mtag"},
    {"MPI_Iprobe", "iiii", "source tag comm flag"},
    {"MPI_Wait", "i", "request"},
    {"MPI_Waitall", "a", "requests"},
    {"MPI_Waitany", "ai", "requests index"},
    {"MPI_Waitsome", "aa", "requests indices"},
    {"MPI_Test", "ii", "request flag"},
    {"MPI_Testall", "ai", "requests flag"},
    {"MPI_Testany", "aii", "requests index flag"},
    {"MPI_Testsome", "aa", "requests indices"},
    {"MPI_Request_free", "i", "request"},
    {"MPI_Barrier", "ii", "comm request"},
    {"MPI_Bcast", "iiiii", "count type root comm request"},
    {"MPI_Reduce", "iiiiiii", "inplace count type op root comm request"},
    {"MPI_Allreduce", "iiiiii", "inplace count type op comm request"},
    {"MPI_Gather", "iiiiiiii", "inplace scount stype rcount rtype root comm request"},
    {"MPI_Scatter", "iiiiiiii", "inplace scount stype rcount rtype root comm request"},
    {"MPI_Allgather", "iiiiiii", "inplace scount stype rcount rtype comm request"},
    {"MPI_Alltoall", "iiiiiii", "inplace scount stype rcount rtype comm request"},
    {"MPI_Reduce_scatter_block", "iiiiii", "inplace count type op comm request"},
    {"MPI_Scan", "iiiiii", "inplace count type op comm request"},
    {"MPI_Exscan", "iiiiii", "inplace count type op comm request"},
    {"MPI_Allgatherv", "iiiaaiii", "inplace scount stype rcounts displs rtype comm request"},
    {"MPI_Alltoallv", "iaaiaaiii",
     "inplace scounts sdispls stype rcounts rdispls rtype comm request"},
    {"MPI_Gatherv", "iiiaaiiii", "inplace scount stype rcounts displs rtype root comm request"},
    {"MPI_Scatterv", "iaaiiiiii", "inplace scounts displs stype rcount rtype root comm request"},
    {"MPI_Comm_dup", "ii", "comm newcomm"},
    {"MPI_Comm_split", "iiii", "comm color key newcomm"},
    {"MPI_Comm_create", "iai", "comm members newcomm"},
    {"MPI_Comm_free", "i", "comm"},
    {"simmpi_poll_rounds", "diiiii", "seconds rounds source tag comm round"},
    {"MPI_Iprobe loop", "iiiii", "source tag comm failed found"},
    {"MPI_Send_init", "iiiiiii", "mode count type dest tag comm request"},
    {"MPI_Recv_init", "iiiiii", "count type source tag comm request"},
    {"MPI_Start", "i", "request"},
    {"MPI_Startall", "a", "requests"},
    {"MPI_Reduce_scatter", "iaiiii", "inplace rcounts type op comm request"},
    {"MPI_Alltoallw", "iaaaaii", "inplace scounts stypes rcounts rtypes comm request"},
    {"MPI_Mprobe", "iiiiii", "source tag comm msrc mtag message"},
    {"MPI_Improbe", "iiiiiii", "source tag comm flag msrc mtag message"},
    {"MPI_Mrecv", "iii", "count type message"},
    {"MPI_Imrecv", "iiii", "count type message request"},
    {"MPI_Buffer_attach", "i", "size"},
    {"MPI_Buffer_detach", "", ""},
    {"MPI_Cart_create", "iaai", "comm dims periods newcomm"},
    {"MPI_Cart_sub", "iai", "comm remain newcomm"},
    {"MPI_Graph_create", "iaai", "comm index edges newcomm"},
    {"MPI_Dist_graph_create_adjacent", "iaaiaai",
     "comm sources destinations weighted sourceweights destweights newcomm"},
    {"MPI_Dist_graph_create", "iaaaiai",
     "comm sources degrees destinations weighted weights newcomm"},
    {"MPI_Neighbor_allgather", "iiiiiiii",
     "scount stype rcount rtype comm indegree outdegree request"},
    {"MPI_Neighbor_allgatherv", "iiaaiii", "scount stype rcounts displs rtype comm request"},
    {"MPI_Neighbor_alltoall", "iiiiiiii",
     "scount stype rcount rtype comm indegree outdegree request"},
    {"MPI_Neighbor_alltoallv", "aaiaaiii",
     "scounts sdispls stype rcounts rdispls rtype comm request"},
    {"MPI_Neighbor_alltoallw", "aaaaii", "scounts stypes rcounts rtypes comm request"},
    {"MPI_Cancel", "i", "request"},
    {"MPI_Intercomm_create", "iiiiii", "comm leader peer remote_leader tag newcomm"},
    {"MPI_Intercomm_merge", "iii", "comm high newcomm"},
    {"MPI_Comm_create_group", "iaii", "comm members tag newcomm"},
    {"MPI_Win_create", "iiiii", "flavor size disp_unit comm win"},
    {"MPI_Win_free", "i", "win"},
    {"MPI_Put/Get/Accumulate...", "iiiiiiiiiiii",
     "call op ocount otype rcount rtype target disp tcount ttype win request"},
    {"MPI_Win_fence", "ii", "assert win"},
    {"MPI_Win_lock", "iiii", "type rank assert win"},
    {"MPI_Win_unlock", "ii", "rank win"},
    {"MPI_Win_lock_all", "ii", "assert win"},
    {"MPI_Win_unlock_all", "i", "win"},
    {"MPI_Win_flush", "ii", "rank win"},
    {"MPI_Win_flush_all", "i", "win"},
    {"MPI_Win_flush_local", "ii", "rank win"},
    {"MPI_Win_flush_local_all", "i", "win"},
    {"MPI_Win_sync", "i", "win"},
    {"MPI_Win_post", "aii", "group assert win"},
    {"MPI_Win_start", "aii", "group assert win"},
    {"MPI_Win_complete", "i", "win"},
    {"MPI_Win_wait", "i", "win"},
    {"MPI_Win_test", "ii", "win flag"},
    {"MPI_Barrier_init", "ii", "comm request"},
    {"MPI_Bcast_init", "iiiii", "count type root comm request"},
    {"MPI_Reduce_init", "iiiiiii", "inplace count type op root comm request"},
    {"MPI_Allreduce_init", "iiiiii", "inplace count type op comm request"},
    {"MPI_Gather_init", "iiiiiiii", "inplace scount stype rcount rtype root comm request"},
    {"MPI_Scatter_init", "iiiiiiii", "inplace scount stype rcount rtype root comm request"},
    {"MPI_Allgather_init", "iiiiiii", "inplace scount stype rcount rtype comm request"},
    {"MPI_Alltoall_init", "iiiiiii", "inplace scount stype rcount rtype comm request"},
    {"MPI_Reduce_scatter_block_init", "iiiiii", "inplace count type op comm request"},
    {"MPI_Scan_init", "iiiiii", "inplace count type op comm request"},
    {"MPI_Exscan_init", "iiiiii", "inplace count type op comm request"},
    {"MPI_Allgatherv_init", "iiiaaiii", "inplace scount stype rcounts displs rtype comm request"},
    {"MPI_Alltoallv_init", "iaaiaaiii",
     "inplace scounts sdispls stype rcounts rdispls rtype comm request"},
    {"MPI_Gatherv_init", "iiiaaiiii",
     "inplace scount stype rcounts displs rtype root comm request"},
    {"MPI_Scatterv_init", "iaaiiiiii",
     "inplace scounts displs stype rcount rtype root comm request"},
    {"MPI_Reduce_scatter_init", "iaiiii", "inplace rcounts type op comm request"},
    {"MPI_Alltoallw_init", "iaaaaii", "inplace scounts stypes rcounts rtypes comm request"},
    {"MPI_Neighbor_allgather_init", "iiiiiiii",
     "scount stype rcount rtype comm indegree outdegree request"},
    {"MPI_Neighbor_allgatherv_init", "iiaaiii", "scount stype rcounts displs rtype comm request"},
    {"MPI_Neighbor_alltoall_init", "iiiiiiii",
     "scount stype rcount rtype comm indegree outdegree request"},
    {"MPI_Neighbor_alltoallv_init", "aaiaaiii",
     "scounts sdispls stype rcounts rdispls rtype comm request"},
    {"MPI_Neighbor_alltoallw_init", "aaaaii", "scounts stypes rcounts rtypes comm request"},
    {"MPI_Psend_init/Precv_init", "iiiiiiii", "send partitions count type peer tag comm request"},
    {"MPI_Pready", "iai", "form partitions request"},
    {"MPI_Parrived", "iii", "request partition flag"},
    {"MPI_Grequest_start", "i", "request"},
    {"MPI_Grequest_complete", "i", "request"},
    {"MPI_Comm_idup", "ii", "comm request"},
    {"MPI_Comm_idup", "ii", "request newcomm"},
    {"MPI_Comm_create_from_group", "asi", "members tag newcomm"},
    {"MPI_Intercomm_create_from_groups", "aiaisi",
     "local_members local_leader remote_members remote_leader tag newintercomm"},
    {"MPI_Session_init", "i", "session"},
    {"MPI_Session_finalize", "i", "session"},
};
static_assert(sizeof kLayouts / sizeof kLayouts[0] == static_cast<std::size_t>(Kind::Count),
              "one layout per kind");

// The number of kinds a trace of each version may hold (index: version - kOldestVersion).
inline constexpr std::size_t kKindsOfVersion[] = {
    static_cast<std::size_t>(Kind::SendInit),     static_cast<std::size_t>(Kind::Mprobe),
    static_cast<std::size_t>(Kind::BufferAttach), static_cast<std::size_t>(Kind::CartCreate),
    static_cast<std::size_t>(Kind::CommIdup),     static_cast<std::size_t>(Kind::Count)};
static_assert(sizeof kKindsOfVersion / sizeof kKindsOfVersion[0] == kVersion - kOldestVersion + 1,
              "one kind count per version");

constexpr const Layout& layout(Kind k) {
  return kLayouts[static_cast<std::size_t>(k)];
}

// The one-sided communication calls an RmaOperation record names (its `call` field).
inline constexpr const char* kRmaCalls[] = {"MPI_Put",          "MPI_Get",
                                            "MPI_Accumulate",   "MPI_Get_accumulate",
                                            "MPI_Fetch_and_op", "MPI_Compare_and_swap",
                                            "MPI_Rput",         "MPI_Rget",
                                            "MPI_Raccumulate",  "MPI_Rget_accumulate"};
// Its index in kRmaCalls, or -1.
inline int rma_call(std::string_view name) {
  for (std::size_t i = 0; i < sizeof kRmaCalls / sizeof kRmaCalls[0]; ++i)
    if (name == kRmaCalls[i]) return static_cast<int>(i);
  return -1;
}

// Each persistent collective's kind and its collective's (whose nonblocking form's fields it
// has: the same layout).
struct PersistentCollective {
  Kind init, collective;
};
inline constexpr PersistentCollective kPersistentCollectives[] = {
    {Kind::BarrierInit, Kind::Barrier},
    {Kind::BcastInit, Kind::Bcast},
    {Kind::ReduceInit, Kind::Reduce},
    {Kind::AllreduceInit, Kind::Allreduce},
    {Kind::GatherInit, Kind::Gather},
    {Kind::ScatterInit, Kind::Scatter},
    {Kind::AllgatherInit, Kind::Allgather},
    {Kind::AlltoallInit, Kind::Alltoall},
    {Kind::ReduceScatterBlockInit, Kind::ReduceScatterBlock},
    {Kind::ScanInit, Kind::Scan},
    {Kind::ExscanInit, Kind::Exscan},
    {Kind::AllgathervInit, Kind::Allgatherv},
    {Kind::AlltoallvInit, Kind::Alltoallv},
    {Kind::GathervInit, Kind::Gatherv},
    {Kind::ScattervInit, Kind::Scatterv},
    {Kind::ReduceScatterInit, Kind::ReduceScatter},
    {Kind::AlltoallwInit, Kind::Alltoallw},
    {Kind::NeighborAllgatherInit, Kind::NeighborAllgather},
    {Kind::NeighborAllgathervInit, Kind::NeighborAllgatherv},
    {Kind::NeighborAlltoallInit, Kind::NeighborAlltoall},
    {Kind::NeighborAlltoallvInit, Kind::NeighborAlltoallv},
    {Kind::NeighborAlltoallwInit, Kind::NeighborAlltoallw},
};
static_assert(sizeof kPersistentCollectives / sizeof kPersistentCollectives[0] ==
                  static_cast<std::size_t>(Kind::NeighborAlltoallwInit) -
                      static_cast<std::size_t>(Kind::BarrierInit) + 1,
              "one pair per persistent collective");

constexpr bool same_fields(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
constexpr bool persistent_layouts_match() {
  for (const PersistentCollective& p : kPersistentCollectives)
    if (!same_fields(layout(p.init).fields, layout(p.collective).fields) ||
        !same_fields(layout(p.init).names, layout(p.collective).names))
      return false;
  return true;
}
static_assert(persistent_layouts_match(), "a persistent collective has its collective's fields");

// The persistent form of collective `k`, or Kind::Count when it has none.
constexpr Kind persistent_form(Kind k) {
  for (const PersistentCollective& p : kPersistentCollectives)
    if (p.collective == k) return p.init;
  return Kind::Count;
}
// The collective of a persistent form `k`, or `k` itself when it is none.
constexpr Kind collective_of(Kind k) {
  for (const PersistentCollective& p : kPersistentCollectives)
    if (p.init == k) return p.collective;
  return k;
}

// Calls that change nothing a replay needs (queries, local object management, timers): the
// replay only lets the rank's time pass at them, as the call did. Any other untraced call
// (one-sided, I/O, threads...) is one the replay cannot make.
inline bool is_local_call(std::string_view name) {
  static constexpr std::string_view kLocal[] = {"MPI_Comm_rank",
                                                "MPI_Comm_size",
                                                "MPI_Wtime",
                                                "MPI_Wtick",
                                                "MPI_Get_count",
                                                "MPI_Get_elements",
                                                "MPI_Get_elements_x",
                                                "MPI_Type_contiguous",
                                                "MPI_Type_vector",
                                                "MPI_Type_hvector",
                                                "MPI_Type_create_hvector",
                                                "MPI_Type_indexed",
                                                "MPI_Type_hindexed",
                                                "MPI_Type_create_hindexed",
                                                "MPI_Type_create_indexed_block",
                                                "MPI_Type_struct",
                                                "MPI_Type_create_struct",
                                                "MPI_Type_create_subarray",
                                                "MPI_Type_create_resized",
                                                "MPI_Type_commit",
                                                "MPI_Type_free",
                                                "MPI_Type_size",
                                                "MPI_Type_get_extent",
                                                "MPI_Type_extent",
                                                "MPI_Type_lb",
                                                "MPI_Type_ub",
                                                "MPI_Address",
                                                "MPI_Get_address",
                                                "MPI_Op_create",
                                                "MPI_Op_free",
                                                "MPI_Op_commutative",
                                                "MPI_Comm_group",
                                                "MPI_Group_size",
                                                "MPI_Group_rank",
                                                "MPI_Group_incl",
                                                "MPI_Group_excl",
                                                "MPI_Group_range_incl",
                                                "MPI_Group_free",
                                                "MPI_Group_translate_ranks",
                                                "MPI_Comm_set_errhandler",
                                                "MPI_Comm_get_errhandler",
                                                "MPI_Errhandler_set",
                                                "MPI_Comm_set_name",
                                                "MPI_Comm_get_name",
                                                "MPI_Get_processor_name",
                                                "MPI_Get_version",
                                                "MPI_Get_library_version",
                                                "MPI_Initialized",
                                                "MPI_Finalized",
                                                "MPI_Query_thread",
                                                "MPI_Is_thread_main",
                                                "MPI_Comm_get_attr",
                                                "MPI_Attr_get",
                                                "MPI_Error_string",
                                                "MPI_Error_class",
                                                "MPI_Comm_compare",
                                                "MPI_Comm_test_inter",
                                                "MPI_Comm_remote_size",
                                                "MPI_Comm_remote_group",
                                                "MPI_Win_get_group",
                                                "MPI_Win_shared_query",
                                                "MPI_Win_get_attr",
                                                "MPI_Win_set_attr",
                                                "MPI_Win_set_name",
                                                "MPI_Win_get_name",
                                                "MPI_Win_get_info",
                                                "MPI_Win_set_info",
                                                "MPI_Win_set_errhandler",
                                                "MPI_Win_get_errhandler",
                                                "MPI_Dims_create",
                                                "MPI_Test_cancelled",
                                                "MPI_Topo_test",
                                                "MPI_Cart_coords",
                                                "MPI_Cart_rank",
                                                "MPI_Cart_shift",
                                                "MPI_Cart_get",
                                                "MPI_Cartdim_get",
                                                "MPI_Cart_map",
                                                "MPI_Graphdims_get",
                                                "MPI_Graph_get",
                                                "MPI_Graph_neighbors_count",
                                                "MPI_Graph_neighbors",
                                                "MPI_Graph_map",
                                                "MPI_Dist_graph_neighbors_count",
                                                "MPI_Dist_graph_neighbors",
                                                "MPI_Group_union",
                                                "MPI_Group_intersection",
                                                "MPI_Group_difference",
                                                "MPI_Group_range_excl",
                                                "MPI_Group_compare",
                                                "MPI_Info_create",
                                                "MPI_Info_create_env",
                                                "MPI_Info_set",
                                                "MPI_Info_get",
                                                "MPI_Info_get_string",
                                                "MPI_Info_get_valuelen",
                                                "MPI_Info_get_nkeys",
                                                "MPI_Info_get_nthkey",
                                                "MPI_Info_delete",
                                                "MPI_Info_dup",
                                                "MPI_Info_free",
                                                "MPI_Comm_create_errhandler",
                                                "MPI_Errhandler_free",
                                                "MPI_Session_get_num_psets",
                                                "MPI_Session_get_nth_pset",
                                                "MPI_Session_get_info",
                                                "MPI_Session_get_pset_info",
                                                "MPI_Session_set_errhandler",
                                                "MPI_Session_get_errhandler",
                                                "MPI_Session_create_errhandler",
                                                "MPI_Group_from_session_pset"};
  for (std::string_view l : kLocal)
    if (l == name) return true;
  return false;
}

// --- encoding ---

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t u) {
  return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}
inline void put_varint(std::string& out, std::uint64_t u) {
  while (u >= 0x80) {
    out.push_back(static_cast<char>((u & 0x7f) | 0x80));
    u >>= 7;
  }
  out.push_back(static_cast<char>(u));
}
inline void put_int(std::string& out, std::int64_t v) {
  put_varint(out, zigzag(v));
}
inline std::int64_t double_bits(double d) {
  std::int64_t i;
  std::memcpy(&i, &d, sizeof i);
  return i;
}
inline double bits_double(std::int64_t i) {
  double d;
  std::memcpy(&d, &i, sizeof d);
  return d;
}
inline void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline std::uint32_t get_u32(const unsigned char* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

// Reads one varint from [*p, end); false when the bytes end first or it runs over 10 bytes.
inline bool get_varint(const unsigned char*& p, const unsigned char* end, std::uint64_t* out) {
  std::uint64_t u = 0;
  for (int shift = 0; shift < 70 && p < end; shift += 7) {
    const unsigned char b = *p++;
    u |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = u;
      return true;
    }
  }
  return false;
}

inline std::string rank_file_name(int rank) {
  return "rank-" + std::to_string(rank) + ".simtrace";
}
inline constexpr const char* kMetaFileName = "simtrace.txt";

}  // namespace simmpi::runtime::call_trace
