// SPDX-License-Identifier: Apache-2.0
// Every configuration key of simmpi, in one table. The defaults together are the embedded
// default platform: a generic cluster of one-rank nodes on a single 100 Gb/s switch.
#include "runtime/config/options.hpp"

#include <algorithm>

namespace simmpi::runtime {

namespace {
// Choices shared by several mpi.coll keys.
const ChoiceDef kAuto{"auto", "the rule of mpi.coll.selection"};
const std::vector<ChoiceDef> kAllgatherChoices = {
    kAuto,
    {"linear", "gather to rank 0, then broadcast"},
    {"bruck", "lg p rounds of growing blocks to rank - 2^k"},
    {"recursive_doubling", "exchanges with rank ^ 2^k (Bruck for p not a power of 2)"},
    {"ring", "p - 1 steps around a ring"},
    {"neighbor_exchange", "p/2 exchanges with alternating neighbours (ring for p odd)"}};
const ChoiceDef kAlltoallLinear{"linear", "all sends and receives posted at once"};
const ChoiceDef kAlltoallPairwise{"pairwise", "p - 1 steps, to rank + i and from rank - i"};
const ChoiceDef kAlltoallScattered{
    "scattered", "linear in batches of mpi.coll.alltoall_throttle peers"};
const ChoiceDef kScatterLinear{"linear", "the root sends to one rank after the other"};
const ChoiceDef kScatterLinearNb{"linear_nb", "the root posts all sends at once"};
const std::vector<ChoiceDef> kReduceScatterChoices = {
    kAuto,
    {"nonoverlapping", "reduce to rank 0, then scatter"},
    {"recursive_halving", "lg p exchanges of halves of the remaining vector"},
    {"pairwise", "p - 1 exchanges of one block with rank + i and rank - i"},
    {"ring", "p - 1 steps of partial blocks around a ring"}};
const std::vector<ChoiceDef> kScanChoices = {
    kAuto,
    {"linear", "a chain from rank 0 to rank p - 1"},
    {"recursive_doubling", "lg p exchanges with rank ^ 2^k"}};
}  // namespace

const std::vector<OptionSpec>& option_registry() {
  static const std::vector<OptionSpec> registry = {
      // --- runtime: fibers, privatization, clocks ---
      {"runtime.stack_size", Kind::Size, "256KiB",
       "Stack of each rank's fiber. Only touched pages cost memory. Raise it when a rank "
       "overflows (deep recursion, large local arrays).",
       {}, 16384, 1099511627776.0},
      {"runtime.stack_guards", Kind::Integer, "16384",
       "How many ranks get an inaccessible guard page below their stack (an overflow is caught "
       "at once). Each guard costs two of the kernel's 65,530 memory mappings; ranks beyond this "
       "budget get a canary that is checked at every switch instead.",
       {}, 0, 30000},
      {"runtime.privatize", Kind::Choice, "copy",
       "How each rank gets its own copy of the program's global and static variables.",
       {{"copy", "memcpy the program's writable data segment in and out when another rank "
                 "starts running (fast for the usual small segments)"},
        {"mmap", "map the rank's own pages of a memory file over the segment (one system call "
                 "per switch, independent of the segment's size)"},
        {"none", "all ranks share the globals (only for programs that have none that differ)"}}},
      {"runtime.epoch", Kind::Integer, "1700000000",
       "Seconds since 1970 that gettimeofday, clock_gettime(CLOCK_REALTIME) and time return at "
       "simulated time zero, so runs are reproducible.",
       {}, 0, 4e9},
      {"runtime.seed", Kind::Integer, "1", "Seed of every pseudo-random choice of a run.", {}, 0,
       9.2e18},

      // --- node: ranks per node and the intra-node message path ---
      {"node.count", Kind::Integer, "0",
       "Number of nodes in the machine; 0 means just enough for the ranks.", {}, 0, 1e9},
      {"node.ranks_per_node", Kind::Integer, "1", "MPI ranks placed on each node.", {}, 1, 1e6},
      {"node.shm_latency", Kind::Time, "300ns",
       "Latency of a message between two ranks of one node (shared memory).", {}, 0, 1},
      {"node.shm_bw", Kind::Bandwidth, "10GB/s",
       "Bandwidth of one message between two ranks of one node (a single-core memory copy).", {},
       1, 1e18},

      // --- network ---
      {"network.topology", Kind::Choice, "crossbar", "Shape of the interconnect.",
       {{"crossbar", "every node on one switch; contention only at the NICs"}}},
      {"network.link_bw", Kind::Bandwidth, "100Gbps",
       "Bandwidth of each network link, including each NIC's injection and ejection link.", {}, 1,
       1e18},
      {"network.hop_latency", Kind::Time, "100ns", "Latency of one switch traversal.", {}, 0, 1},
      {"network.nic_latency", Kind::Time, "500ns",
       "Latency the two NICs add to every message (injection plus ejection).", {}, 0, 1},

      // --- mpi: protocol and software costs ---
      {"mpi.eager_threshold", Kind::Size, "64KiB",
       "Messages up to this size are sent eagerly; larger ones use the rendezvous protocol "
       "(request to send, clear to send, then the data).",
       {}, 0, 1e18},
      {"mpi.send_overhead", Kind::Time, "300ns", "CPU time of posting one send.", {}, 0, 1},
      {"mpi.recv_overhead", Kind::Time, "300ns",
       "CPU time of completing one receive (matching and copy-out).", {}, 0, 1},
      {"mpi.poll_cost", Kind::Time, "50ns",
       "Simulated time one MPI_Test*, MPI_Iprobe, MPI_Wtime, gettimeofday or clock_gettime call "
       "costs, so busy-polling loops advance the clock and end.",
       {}, 0, 1},

      // --- mpi.coll: collective algorithms (libsimmpi/coll/selection.hpp) ---
      {"mpi.coll.selection", Kind::Choice, "ompi",
       "Whose default choice of collective algorithms to reproduce, by message size, "
       "communicator size and operation.",
       {{"ompi", "Open MPI 4.1's tuned fixed decision rules"},
        {"mpich", "MPICH 3.3's auto rules with the default CVAR thresholds"}}},
      {"mpi.coll.barrier", Kind::Choice, "auto", "Algorithm of MPI_Barrier and MPI_Ibarrier.",
       {kAuto,
        {"dissemination", "lg p rounds of signals to rank + 2^k (MPICH; Open MPI's bruck)"},
        {"recursive_doubling", "exchanges with rank ^ 2^k, extra ranks folded in"},
        {"linear", "everyone signals rank 0, which releases each in turn"},
        {"tree", "binomial fan-in to rank 0, then fan-out"}}},
      {"mpi.coll.bcast", Kind::Choice, "auto", "Algorithm of MPI_Bcast and MPI_Ibcast.",
       {kAuto, {"linear", "the root sends to every rank"},
        {"chain", "pipelined down mpi.coll.chain_fanout chains from the root"},
        {"pipeline", "pipelined down one chain of all ranks"},
        {"split_binary_tree", "each half down one subtree of a binary tree, then swapped"},
        {"binary_tree", "pipelined down a binary tree"},
        {"binomial", "down a binomial tree, largest subtree first"},
        {"knomial", "pipelined down a k-nomial tree of radix mpi.coll.knomial_radix"},
        {"scatter_allgather", "binomial scatter, then recursive-doubling allgather"},
        {"scatter_ring_allgather", "binomial scatter, then ring allgather"}}},
      {"mpi.coll.reduce", Kind::Choice, "auto", "Algorithm of MPI_Reduce and MPI_Ireduce.",
       {kAuto, {"linear", "the root receives and combines every vector in rank order"},
        {"chain", "pipelined up mpi.coll.chain_fanout chains to the root"},
        {"pipeline", "pipelined up one chain of all ranks"},
        {"binary_tree", "pipelined up a binary tree"},
        {"binomial", "up a binomial tree (the selected library's variant)"},
        {"in_order_binary_tree", "up a binary tree that keeps rank order (any operation)"},
        {"rabenseifner", "recursive-halving reduce-scatter, then binomial gather"}}},
      {"mpi.coll.allreduce", Kind::Choice, "auto",
       "Algorithm of MPI_Allreduce and MPI_Iallreduce.",
       {kAuto, {"linear", "linear reduce to rank 0, then linear broadcast"},
        {"nonoverlapping", "reduce to rank 0, then broadcast, each as selected"},
        {"recursive_doubling", "lg p exchanges of the whole vector"},
        {"ring", "ring reduce-scatter, then ring allgather"},
        {"segmented_ring", "ring whose reduce-scatter goes in segments of mpi.coll.segment_size"},
        {"rabenseifner", "recursive-halving reduce-scatter, then recursive-doubling allgather"}}},
      {"mpi.coll.allgather", Kind::Choice, "auto",
       "Algorithm of MPI_Allgather and MPI_Iallgather.", kAllgatherChoices},
      {"mpi.coll.allgatherv", Kind::Choice, "auto",
       "Algorithm of MPI_Allgatherv and MPI_Iallgatherv.", kAllgatherChoices},
      {"mpi.coll.alltoall", Kind::Choice, "auto", "Algorithm of MPI_Alltoall and MPI_Ialltoall.",
       {kAuto, kAlltoallLinear, kAlltoallPairwise,
        {"bruck", "lg p rounds of packed blocks to rank + 2^k"}, kAlltoallScattered}},
      {"mpi.coll.alltoallv", Kind::Choice, "auto",
       "Algorithm of MPI_Alltoallv and MPI_Ialltoallv.",
       {kAuto, kAlltoallLinear, kAlltoallPairwise, kAlltoallScattered}},
      {"mpi.coll.gather", Kind::Choice, "auto", "Algorithm of MPI_Gather and MPI_Igather.",
       {kAuto, {"linear", "every rank sends to the root at once"},
        {"binomial", "up a binomial tree"},
        {"linear_sync", "the root asks the ranks for their data one at a time"}}},
      {"mpi.coll.gatherv", Kind::Choice, "auto", "Algorithm of MPI_Gatherv and MPI_Igatherv.",
       {kAuto, {"linear", "every rank sends to the root at once"}}},
      {"mpi.coll.scatter", Kind::Choice, "auto", "Algorithm of MPI_Scatter and MPI_Iscatter.",
       {kAuto, kScatterLinear, kScatterLinearNb, {"binomial", "down a binomial tree"}}},
      {"mpi.coll.scatterv", Kind::Choice, "auto",
       "Algorithm of MPI_Scatterv and MPI_Iscatterv.", {kAuto, kScatterLinear, kScatterLinearNb}},
      {"mpi.coll.reduce_scatter", Kind::Choice, "auto",
       "Algorithm of MPI_Reduce_scatter and MPI_Ireduce_scatter.", kReduceScatterChoices},
      {"mpi.coll.reduce_scatter_block", Kind::Choice, "auto",
       "Algorithm of MPI_Reduce_scatter_block and MPI_Ireduce_scatter_block.",
       kReduceScatterChoices},
      {"mpi.coll.scan", Kind::Choice, "auto", "Algorithm of MPI_Scan and MPI_Iscan.",
       kScanChoices},
      {"mpi.coll.exscan", Kind::Choice, "auto", "Algorithm of MPI_Exscan and MPI_Iexscan.",
       kScanChoices},
      {"mpi.coll.segment_size", Kind::Size, "0B",
       "Segment size of the pipelined collectives (chain, pipeline, trees, segmented ring); 0 "
       "sends whole messages, as Open MPI's fixed rules do.",
       {}, 0, 1e18},
      {"mpi.coll.chain_fanout", Kind::Integer, "4",
       "Chains of a forced chain broadcast or reduction (Open MPI's default; its fixed rules "
       "use 1).",
       {}, 1, 1e6},
      {"mpi.coll.knomial_radix", Kind::Integer, "4", "Radix of the k-nomial broadcast tree.", {},
       2, 1e6},
      {"mpi.coll.alltoall_throttle", Kind::Integer, "32",
       "Peers per batch of the scattered all-to-all (MPICH's MPIR_CVAR_ALLTOALL_THROTTLE); 0 "
       "posts all at once.",
       {}, 0, 1e9},
  };
  return registry;
}

const OptionSpec* find_option(std::string_view key) {
  for (const auto& o : option_registry())
    if (key == o.key) return &o;
  return nullptr;
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string closest_option(std::string_view key) {
  std::string best;
  std::size_t best_d = ~std::size_t{0};
  for (const auto& o : option_registry()) {
    std::size_t d = edit_distance(key, o.key);
    // A key named without its table ("link_bw") is matched by its last component too.
    std::string_view k(o.key);
    std::string_view tail = k.substr(k.rfind('.') + 1);
    d = std::min(d, edit_distance(key, tail) + 1);
    if (d < best_d) best_d = d, best = o.key;
  }
  return best;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Integer: return "integer";
    case Kind::Real: return "number";
    case Kind::Bool: return "true or false";
    case Kind::Text: return "text";
    case Kind::Choice: return "choice";
    case Kind::IntegerList: return "list of integers";
    case Kind::Time: return "time";
    case Kind::Bandwidth: return "bandwidth";
    case Kind::Size: return "size";
    case Kind::Frequency: return "frequency";
    case Kind::FlopRate: return "flop rate";
  }
  return "";
}

}  // namespace simmpi::runtime
