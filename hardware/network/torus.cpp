// SPDX-License-Identifier: Apache-2.0
// Torus/mesh link numbering and dimension-order routing.
#include "hardware/network/torus.hpp"

#include <cstdlib>
#include <limits>

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {

std::unique_ptr<Torus> Torus::from_config(const runtime::Config& c) {
  TorusShape s;
  std::vector<std::int64_t> dims = c.integer_list("network.torus.dims");
  s.terminals = static_cast<int>(c.integer("network.torus.terminals"));
  s.wrap = c.flag("network.torus.wrap");
  s.link_Bps = c.bandwidth_Bps("network.link_bw");
  if (dims.empty())
    throw ConfigError(
        strprintf("network.torus.dims = [] (%s): give the routers along each "
                  "dimension, e.g. [8, 8, 8]",
                  c.origin("network.torus.dims").c_str()));
  std::int64_t routers = 1;
  for (std::int64_t k : dims) {
    routers *= k;
    // Each router has 2 links per dimension and each node 2 NIC links; all must fit in LinkId.
    if (routers * (s.terminals + static_cast<std::int64_t>(dims.size())) * 2 >
        std::numeric_limits<LinkId>::max())
      throw ConfigError(
          strprintf("network.torus.dims (%s): too many routers; the network would "
                    "have more than 2^31 links",
                    c.origin("network.torus.dims").c_str()));
    s.dims.push_back(static_cast<int>(k));
  }
  return std::make_unique<Torus>(s);
}

Torus::Torus(const TorusShape& s) : s_(s), routers_(1) {
  for (int k : s_.dims) {
    SIMMPI_ASSERT(k >= 1, "torus dimension of %d routers", k);
    stride_.push_back(routers_);
    routers_ *= k;
  }
  router_base_ = 2LL * node_count();
}

int Torus::steps(int d, int a, int b) const {
  int k = s_.dims[static_cast<std::size_t>(d)];
  if (!s_.wrap) return b - a;
  int forward = ((b - a) % k + k) % k;
  return forward <= k - forward ? forward : forward - k;
}

void Torus::route(int src, int dst, const RouteContext&, std::vector<LinkId>& out) const {
  int r = src / s_.terminals, rd = dst / s_.terminals;
  out.push_back(2 * src);
  for (int d = 0; d < dims(); ++d) {
    int k = s_.dims[static_cast<std::size_t>(d)], stride = stride_[static_cast<std::size_t>(d)];
    int a = r / stride % k, n = steps(d, a, rd / stride % k);
    int dir = n < 0 ? 1 : 0;
    for (int i = 0; i < std::abs(n); ++i) {
      out.push_back(static_cast<LinkId>(router_base_ +
                                        (static_cast<std::int64_t>(r) * dims() + d) * 2 + dir));
      int next = (a + (dir ? k - 1 : 1)) % k;
      r += (next - a) * stride;
      a = next;
    }
  }
  out.push_back(2 * dst + 1);
}

int Torus::routers_crossed(int src, int dst) const {
  int a = src / s_.terminals, b = dst / s_.terminals, n = 1;
  for (int d = 0; d < dims(); ++d) {
    int k = s_.dims[static_cast<std::size_t>(d)], stride = stride_[static_cast<std::size_t>(d)];
    n += std::abs(steps(d, a / stride % k, b / stride % k));
  }
  return n;
}

std::string Torus::link_name(LinkId link) const {
  auto coords = [&](int r) {
    std::string s = "(";
    for (int d = 0; d < dims(); ++d)
      s += (d ? "," : "") + std::to_string(r / stride_[static_cast<std::size_t>(d)] %
                                           s_.dims[static_cast<std::size_t>(d)]);
    return s + ")";
  };
  if (link < router_base_) {
    int node = link / 2;
    std::string n = "n" + std::to_string(node), r = "r" + coords(node / s_.terminals);
    return link % 2 == 0 ? n + ">" + r : r + ">" + n;
  }
  std::int64_t i = link - router_base_;
  auto r = static_cast<int>(i / 2 / dims());
  auto d = static_cast<std::size_t>(i / 2 % dims());
  int k = s_.dims[d], a = r / stride_[d] % k, b = (a + (i % 2 == 0 ? 1 : k - 1)) % k;
  std::string unused = !s_.wrap && (i % 2 == 0 ? a == k - 1 : a == 0) ? " unused" : "";
  return strprintf("r%s>r%s d%zu%c%s", coords(r).c_str(), coords(r + (b - a) * stride_[d]).c_str(),
                   d, i % 2 == 0 ? '+' : '-', unused.c_str());
}

}  // namespace simmpi::hardware
