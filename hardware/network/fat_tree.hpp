// SPDX-License-Identifier: Apache-2.0
// Extended generalized fat-trees, XGFT(h; m_1..m_h; w_1..w_h) (Ohring, Ibel, Das and Kumar, "On
// generalized fat trees", IPPS 1995), with p_i parallel links between an element and each of its
// parents and a bandwidth per level. k-ary n-trees are XGFT(n; k..k; 1, k..k); tapered trees have
// fewer up ports than down ports; Frontera is down = [44, 182], up = [1, 6], links = [1, 3].
//
// Labels. A level-i element is (a_h..a_{i+1}, b_i..b_1), a_j < m_j the child position and b_j <
// w_j the parent choice; its index is lower + W_i * upper with lower = (b_i..b_1) in radix w and
// upper = (a_h..a_{i+1}) in radix m, W_i = w_1...w_i. Nodes are level 0 (index = node id); the
// tree has m_1...m_h nodes. The links of level i join level i-1 to level i, one up and one down
// per (child, parent, parallel copy).
//
// Routing goes up to the lowest common level k of source and destination, choosing one of the
// w_i * p_i up ports at each level, then down along the unique path (one of p_i parallel links):
//   D-mod-K (Zahavi, "D-Mod-K routing providing non-blocking traffic for shift permutations on
//   real life fat trees", 2010, for parallel-port trees): port_i = floor(d / W_{i-1}) mod
//   (w_i p_i), d the destination, parent b_i = port_i mod w_i, copy = port_i div w_i; the down
//   link uses the same port. On a full tree every shift permutation then uses each link at most
//   once.
//   random: a port drawn per flow and level from the flow's seeded salt (ECMP-like).
// Routes are computed from these labels: memory is the link table, linear in nodes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hardware/network/topology.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

struct FatTreeShape {
  std::vector<int> down;          // m_1..m_h: children of a level-i switch
  std::vector<int> up;            // w_1..w_h: parents of a level-(i-1) element
  std::vector<int> links;         // p_1..p_h: parallel links to each parent
  std::vector<double> level_Bps;  // bandwidth of the links of each level
};

class FatTree final : public Topology {
 public:
  enum class Routing { DModK, Random };

  FatTree(const FatTreeShape& shape, Routing routing);
  // Reads network.fat_tree.* and network.link_bw; throws ConfigError naming the key when the
  // parameters do not describe a tree.
  static std::unique_ptr<FatTree> from_config(const runtime::Config& config);

  int node_count() const override { return static_cast<int>(nodes_); }
  int link_count() const override { return static_cast<int>(link_total_); }
  double link_bw_Bps(LinkId link) const override;
  std::vector<CapacityRun> capacity_runs() const override;  // one per level
  std::string link_name(LinkId link) const override;
  void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const override;
  // Routes are minimal: up to the lowest common level and down again, whatever the routing.
  int route_links(int src, int dst) const override { return 2 * common_level(src, dst); }
  bool has_fixed_routes() const override { return routing_ == Routing::DModK; }

  int levels() const { return h_; }

 private:
  struct Level {             // level i: the links between level i-1 and level i
    std::int64_t m, w, p;    // children per switch, parents per element, parallel links
    std::int64_t M;          // m_1...m_i: nodes under a level-i switch
    std::int64_t W;          // w_1...w_i
    std::int64_t dmodk_div;  // W_{i-1} capped at nodes + 1: the D-mod-K divisor
    std::int64_t children;   // elements at level i-1
    std::int64_t up_base;    // first up link id; down links follow the up links
    double bw_Bps;
  };
  LinkId link_id(int level, std::int64_t child, std::int64_t parent_choice, std::int64_t copy,
                 bool up) const;
  int port(int level, int dst, std::uint64_t salt) const;

  int h_;
  Routing routing_;
  std::vector<Level> lv_;  // lv_[i] for i in 1..h; lv_[0] describes the nodes
  // The lowest level whose switches have both nodes below them.
  int common_level(int src, int dst) const {
    int k = 1;
    while (src / lv_[static_cast<std::size_t>(k)].M != dst / lv_[static_cast<std::size_t>(k)].M)
      ++k;
    return k;
  }
  std::int64_t nodes_;
  std::int64_t link_total_;
};

}  // namespace simmpi::hardware
