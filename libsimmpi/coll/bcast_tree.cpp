// SPDX-License-Identifier: Apache-2.0
// Pipelined tree broadcast, Open MPI's ompi_coll_base_bcast_intra_generic: the message is cut
// into segments that flow down a tree (tree_shapes.hpp). The root sends each segment to all its
// children and waits for those sends before the next segment; an inner rank keeps one receive
// ahead (segment s + 1 posted before it forwards segment s); a leaf just receives. With the
// binomial shape and one segment this is also MPICH's binomial broadcast (children farthest
// first), and Open MPI's "binomial", "binary_tree", "knomial", "chain" and "pipeline" are this
// algorithm on their trees.
// Cost with one segment of S bytes (h = h(S), w = w(S), g = g(S), fan as in algorithms.hpp): a
// rank posts its sends to its c children back to back, so child j gets the data fan_c(j) after
// its parent, and T(subtree) = max_j [fan_c(j) + T(subtree of child j)]. On the binomial tree
// with p = 2^k the first child's subtree is the slowest (h >= (lg p - 1) o_s),
// T = sum_{c=1..k} fan_c(0): lg h when w <= o_s, 3h + 3w - 3.5 o_s for p = 8 and
// 4h + 6w - (47/6) o_s for p = 16 when all flows overlap; p = 5: T = fan_3(1) + h; p = 7:
// T = max(fan_3(0) + fan_2(1), fan_3(1) + h). On the binary tree with p = 2^(d+1) - 1 the second
// child is the last, T = d (h + g). On the radix-4 k-nomial tree with p = 4^d a rank at level i
// serves 3i children, the third with a full subtree being the slowest, T = sum_{i=1..d}
// fan_{3i}(2). On c chains of m ranks each (p = c m + 1) the last chain is, T = m h + (c - 1) g.
// Pipelined, on the chain of p ranks with n eager segments of s bytes: with w(s) <= o_s each hop
// adds h(s) and the segments follow o_s apart, T = (p - 1) h(s) + (n - 1) o_s; with n = 2 and
// w(s) > o_s a hop's two flows share the link and arrive o_s apart, so every hop adds
// fan_2(0) = h(s) + w(s) - o_s, T = (p - 1) (h(s) + w(s) - o_s) + o_s. More such segments leave
// each link in an irregular pattern that every hop reshapes (no closed form).
#include <algorithm>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

struct Segments {
  char* base;
  std::size_t bytes, size;
  std::size_t count() const { return (bytes + size - 1) / size; }
  char* at(std::size_t i) const { return base + i * size; }
  std::size_t length(std::size_t i) const { return std::min(size, bytes - i * size); }
};

void send_to_children(CollContext& c, const Tree& t, const Segments& seg, std::size_t i) {
  std::vector<Request*> sends;
  for (int child : t.children) sends.push_back(c.isend(child, kTagBcast, seg.at(i), seg.length(i)));
  c.wait_all(sends);
}

}  // namespace

void bcast_tree(CollContext& c, void* buf, std::size_t bytes, int root, const TreeShape& shape,
                std::size_t segment) {
  if (c.size() == 1 || bytes == 0) return;
  Tree t = build_tree(shape, c.size(), c.rank(), root);
  Segments seg{static_cast<char*>(buf), bytes, segment ? std::min(segment, bytes) : bytes};
  std::size_t n = seg.count();
  if (c.rank() == root) {
    for (std::size_t i = 0; i < n; ++i) send_to_children(c, t, seg, i);
    return;
  }
  Request* pending = c.irecv(t.parent, kTagBcast, seg.at(0), seg.length(0));
  for (std::size_t i = 1; i <= n; ++i) {
    Request* next = i < n ? c.irecv(t.parent, kTagBcast, seg.at(i), seg.length(i)) : nullptr;
    c.wait(pending);
    if (!t.children.empty()) send_to_children(c, t, seg, i - 1);
    pending = next;
  }
}

}  // namespace simmpi::mpi
