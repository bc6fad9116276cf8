// SPDX-License-Identifier: Apache-2.0
// Striped accesses and metadata operations as flows and latencies on the network.
#include "hardware/storage/storage_model.hpp"

#include <algorithm>

#include "hardware/storage/storage_topology.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

// The requests of one access still on their way; the access ends with the last.
struct Join {
  int left;
  SimTime latest;
  ArrivalNotice done;
};

void part_done(Join* j, SimTime t) {
  j->latest = runtime::max(j->latest, t);
  if (--j->left > 0) return;
  ArrivalNotice done = j->done;
  SimTime latest = j->latest;
  delete j;
  done(latest);
}

// One OST's share of an access.
struct Part {
  Network* network;
  Join* join;
  int client, server;
  std::uint64_t bytes;
  SimTime ost_latency;
};

void write_arrived(void* obj, std::uint64_t, SimTime arrival) {
  auto* p = static_cast<Part*>(obj);
  SimTime t = arrival + p->ost_latency + p->network->latency(p->server, p->client);
  Join* j = p->join;
  delete p;
  part_done(j, t);
}

void read_arrived(void* obj, std::uint64_t, SimTime arrival) {
  auto* p = static_cast<Part*>(obj);
  Join* j = p->join;
  delete p;
  part_done(j, arrival);
}

// The OST has read the data: it flows back to the client.
void read_served(void* obj, std::uint64_t) {
  auto* p = static_cast<Part*>(obj);
  p->network->transfer(p->server, p->client, p->bytes, ArrivalNotice{&read_arrived, p, 0});
}

// How many of the stripes first..last (inclusive) are congruent to r modulo c.
std::uint64_t stripes_congruent(std::uint64_t first, std::uint64_t last, std::uint64_t r,
                                std::uint64_t c) {
  std::uint64_t k = first + (r + c - first % c) % c;  // the first such stripe
  return k > last ? 0 : (last - k) / c + 1;
}

}  // namespace

StorageParams::StorageParams(const runtime::Config& config)
    : osts(static_cast<int>(config.integer("storage.osts"))),
      ost_Bps(config.bandwidth_Bps("storage.ost_bw")),
      ost_latency(config.time("storage.ost_latency")),
      stripe_unit_bytes(config.size_bytes("storage.stripe_size")),
      stripe_count(static_cast<int>(config.integer("storage.stripe_count"))),
      mds_latency(config.time("storage.mds_latency")),
      mds_ops_per_s(static_cast<double>(config.integer("storage.mds_rate"))) {}

std::vector<double> StorageParams::server_Bps() const {
  std::vector<double> bw(static_cast<std::size_t>(osts), ost_Bps);
  bw.push_back(ost_Bps);  // the MDS: its requests are small, only their latency counts
  return bw;
}

StorageModel::StorageModel(runtime::Engine& engine, Network& network,
                           const StorageTopology& topology, const StorageParams& params)
    : engine_(engine), network_(network), topology_(topology), params_(params) {}

StorageModel::~StorageModel() = default;

Striping StorageModel::stripe_new_file(int count, std::uint64_t unit_bytes) {
  Striping s;
  s.count = std::min(count > 0 ? count : params_.stripe_count, params_.osts);
  s.unit_bytes = unit_bytes > 0 ? unit_bytes : params_.stripe_unit_bytes;
  s.first = next_first_;
  next_first_ = (next_first_ + s.count) % params_.osts;
  return s;
}

void StorageModel::access(int client_node, const Striping& s, std::uint64_t offset,
                          std::uint64_t bytes, IoDirection dir, ArrivalNotice done) {
  if (bytes == 0) {
    done(engine_.now());
    return;
  }
  (dir == IoDirection::Write ? bytes_written_ : bytes_read_) += bytes;
  const std::uint64_t u = s.unit_bytes, c = static_cast<std::uint64_t>(s.count);
  const std::uint64_t first = offset / u, last = (offset + bytes - 1) / u;
  // Each OST's bytes: its whole stripes, less the head of the first and the tail of the last.
  std::vector<std::uint64_t> share(c);
  for (std::uint64_t r = 0; r < c; ++r) share[r] = stripes_congruent(first, last, r, c) * u;
  share[first % c] -= offset - first * u;
  share[last % c] -= (last + 1) * u - (offset + bytes);
  auto* join = new Join{0, engine_.now(), done};
  for (std::uint64_t r = 0; r < c; ++r)
    if (share[r] > 0) ++join->left;
  for (std::uint64_t r = 0; r < c; ++r) {
    if (share[r] == 0) continue;
    int ost = static_cast<int>((static_cast<std::uint64_t>(s.first) + r) %
                               static_cast<std::uint64_t>(params_.osts));
    auto* p = new Part{&network_,          join, client_node, topology_.server_node(ost), share[r],
                       params_.ost_latency};
    if (dir == IoDirection::Write) {
      network_.transfer(client_node, p->server, share[r], ArrivalNotice{&write_arrived, p, 0});
    } else {
      SimTime at = engine_.now() + network_.latency(client_node, p->server) + params_.ost_latency;
      engine_.schedule(at, runtime::Action{&read_served, p, 0});
    }
  }
}

void StorageModel::metadata(int client_node, ArrivalNotice done) {
  ++metadata_ops_;
  int mds = topology_.server_node(params_.osts);
  SimTime arrival = engine_.now() + network_.latency(client_node, mds);
  SimTime served = runtime::max(arrival, mds_free_);
  mds_free_ = served + SimTime::from_seconds(1.0 / params_.mds_ops_per_s);
  done(served + params_.mds_latency + network_.latency(mds, client_node));
}

}  // namespace simmpi::hardware
