// SPDX-License-Identifier: Apache-2.0
// Every configuration key of simmpi, in one table. The defaults together are the embedded
// default platform: a generic cluster of one-rank nodes on a single 100 Gb/s switch.
#include "runtime/config/options.hpp"

#include <algorithm>

namespace simmpi::runtime {

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
