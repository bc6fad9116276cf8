// SPDX-License-Identifier: Apache-2.0
// The simulated machine as the layers above see it: nodes, which process runs on which node,
// and the two paths a message can take (shared memory inside a node, the network between
// nodes). Built from the configuration.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hardware/network/network.hpp"
#include "runtime/config/config.hpp"

namespace simmpi::hardware {

class ComputeModel;
class StorageModel;
class TrafficMatrix;

class Platform {
 public:
  // Builds the network (network.topology) and places `processes` processes on its nodes
  // (node.placement, node.ranks_per_node per node). Throws ConfigError, before anything runs,
  // when the machine is too small for the ranks or a topology or placement key is invalid.
  // `spare_processes` more may start during the run (MPI_Comm_spawn): as many as the free nodes
  // (those no process uses) hold at node.ranks_per_node each are placed there, in node order,
  // as processes `processes` and up (spare_processes() says how many fit).
  Platform(runtime::Engine& engine, int processes, const runtime::Config& config,
           int spare_processes = 0);
  ~Platform();
  // The machine of the running simulation (one per process image), or nullptr. Layers beside
  // libsimmpi (libsimblas) reach the machine through it.
  static Platform* instance() { return instance_; }
  // The machine's size in nodes as the configuration describes it (node.count, else the
  // topology's own size), or 0 when it has none (a crossbar grows to fit the ranks).
  static int configured_nodes(const runtime::Config& config);
  // Compute side of every node: CPU roofline, GPUs, blas.* settings (hardware/compute/).
  ComputeModel& compute() { return *compute_; }
  // The parallel file system (hardware/storage/), whose servers are nodes of the network after
  // the compute nodes.
  StorageModel& storage() { return *storage_; }

  int node_count() const { return nodes_; }
  // The processes placed for starting during the run, after the first ones (see the
  // constructor), and how many the free nodes would hold in all.
  int spare_processes() const { return spare_processes_; }
  int free_slots() const { return free_slots_; }
  int node_of(int process) const { return node_of_[static_cast<std::size_t>(process)]; }
  Network& network() { return *network_; }

  // Latency of a zero-byte message between two processes on an idle machine.
  SimTime latency(int src_process, int dst_process) const;
  // A lower bound of latency() over every pair of processes.
  SimTime min_latency() const;
  // Time `bytes` take to move between two processes alone on an idle machine, latency apart:
  // bytes over the route's narrowest link (shared memory: node.shm_bw).
  SimTime alone_transfer(int src_process, int dst_process, std::uint64_t bytes) const;
  // The link of the route between two processes that carried most bytes between `from` and
  // `to`, by name, when network.stats is on; "" otherwise or within a node.
  std::string busiest_link(int src_process, int dst_process, SimTime from, SimTime to) const;
  // Moves `bytes` from one process's memory to another's, starting now; `arrived` is told when
  // the last byte arrives (ArrivalNotice, network.hpp).
  void transfer(int src_process, int dst_process, std::uint64_t bytes, ArrivalNotice arrived);
  // The most loaded links' load over time (network.stats), for the timeline's link tracks.
  std::vector<LinkSeries> busiest_link_load(SimTime end) const {
    return network_->busiest_link_load(end);
  }
  // Called once after the simulation ends: writes the statistics network.stats asks for.
  void finish();

 private:
  // Places up to `wanted` spare processes on the nodes whose count of processes is 0.
  void place_spares(const std::vector<int>& per_node_count, int per_node, int wanted);
  static Platform* instance_;
  std::unique_ptr<ComputeModel> compute_;
  runtime::Engine& engine_;
  int nodes_;
  std::vector<int> node_of_;
  int spare_processes_ = 0;
  int free_slots_ = 0;
  SimTime shm_latency_;
  bool node_shared_ = false;  // some node hosts two processes or more
  double shm_Bps_;
  std::unique_ptr<Network> network_;
  std::unique_ptr<StorageModel> storage_;
  std::unique_ptr<TrafficMatrix> rank_matrix_;  // network.stats with stats_matrix = ranks
  std::string rank_matrix_path_;
};

}  // namespace simmpi::hardware
