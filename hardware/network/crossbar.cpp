// SPDX-License-Identifier: Apache-2.0
// One switch: a route is the source's injection link and the destination's ejection link.
#include "hardware/network/crossbar.hpp"

namespace simmpi::hardware {

std::string Crossbar::link_name(LinkId link) const {
  std::string node = "n" + std::to_string(link / 2);
  return link % 2 == 0 ? node + ">switch" : "switch>" + node;
}

void Crossbar::route(int src, int dst, const RouteContext&, std::vector<LinkId>& out) const {
  out.push_back(2 * src);
  out.push_back(2 * dst + 1);
}

}  // namespace simmpi::hardware
