// SPDX-License-Identifier: Apache-2.0
// A Lustre-like parallel file system (storage.* keys): object storage targets (OSTs) that hold
// the stripes of files, and one metadata server (MDS) that opens, creates, closes and resizes
// them. Both are endpoints of the network (storage_topology.hpp), so their traffic shares links
// with MPI messages.
//
// A file is striped round-robin: stripe k (bytes [k u, (k + 1) u) for stripe size u) lives on
// OST (first + k mod c) mod osts, for stripe count c. An access of [offset, offset + S) sends
// one request to each OST it touches, all at once, carrying the bytes of its stripes; with L the
// network latency between the client's node and a server, B_i the bandwidth a flow gets (the
// OST's link shared max-min with the other flows there, the client's link with its other flows)
// and l the OST's latency (storage.ost_latency):
//   write  the data flows to the OST, which commits it (l) and replies: done L + S_i/B_i + l + L
//   read   a request reaches the OST (L), which reads (l) and sends the data: L + l + L + S_i/B_i
// and the access is done when its last OST is. So one client writing S bytes to one OST on an
// idle machine takes 2L + l + S/bw, k stripes go k times faster until the client's own link
// (or network.flow_max_bw) is the bottleneck, and N clients on one OST share its bandwidth.
//
// A metadata operation is a request to the MDS (L), served first come first served at
// storage.mds_rate operations per second, each taking storage.mds_latency, and a reply (L):
// the N opens of a collective open queue there. The queue is kept in the order operations are
// issued, which is the order of their arrivals when the clients are equally far from the MDS.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hardware/network/network.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

class StorageTopology;

// How one file's bytes are laid over the OSTs.
struct Striping {
  std::uint64_t unit_bytes = 1 << 20;  // stripe size
  int count = 1;                       // stripe count (OSTs used), at most the OSTs there are
  int first = 0;                       // the OST of stripe 0
};

enum class IoDirection : std::uint8_t { Read, Write };

struct StorageParams {
  int osts;
  double ost_Bps;
  SimTime ost_latency;
  std::uint64_t stripe_unit_bytes;
  int stripe_count;
  SimTime mds_latency;
  double mds_ops_per_s;
  // Reads the storage.* keys.
  explicit StorageParams(const runtime::Config& config);
  // The bandwidth of each server's link: the OSTs', then the MDS's.
  std::vector<double> server_Bps() const;
};

class StorageModel {
 public:
  // `topology` is the network's (made with params.server_Bps()); both outlive the model.
  StorageModel(runtime::Engine& engine, Network& network, const StorageTopology& topology,
               const StorageParams& params);
  ~StorageModel();

  const StorageParams& params() const { return params_; }
  // The striping of a new file: `count` and `unit_bytes` from the file's hints (0: the
  // defaults, storage.stripe_count and stripe_size); count is capped at the OSTs. Files take
  // their first OST in turn, as Lustre's round-robin allocator does on balanced OSTs.
  Striping stripe_new_file(int count, std::uint64_t unit_bytes);

  // Reads or writes [offset, offset + bytes) of a file striped as `s` from compute node
  // `client_node`, starting now; `done` is told the time it ends (at once for 0 bytes). Never
  // switches fibers.
  void access(int client_node, const Striping& s, std::uint64_t offset, std::uint64_t bytes,
              IoDirection dir, ArrivalNotice done);
  // One metadata operation of `client_node` (open, create, close, resize, delete), starting now.
  void metadata(int client_node, ArrivalNotice done);

  // Bytes the OSTs received and sent so far (for the run's report).
  std::uint64_t bytes_written() const { return bytes_written_; }
  std::uint64_t bytes_read() const { return bytes_read_; }
  std::uint64_t metadata_ops() const { return metadata_ops_; }

 private:
  runtime::Engine& engine_;
  Network& network_;
  const StorageTopology& topology_;
  StorageParams params_;
  int next_first_ = 0;
  SimTime mds_free_;
  std::uint64_t bytes_written_ = 0, bytes_read_ = 0, metadata_ops_ = 0;
};

}  // namespace simmpi::hardware
