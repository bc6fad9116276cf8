// SPDX-License-Identifier: Apache-2.0
// Split binary tree broadcast (Open MPI's ompi_coll_base_bcast_intra_split_bintree): the root
// sends the first half of the message, in segments, down its left subtree (odd ranks relative
// to the root, in the level-order binary tree) and the second half down its right subtree (even
// ones); then each rank swaps halves with its twin in the other subtree (relative rank r + 1 or
// r - 1); with p even the last rank, which has no twin, gets the second half from the root.
// Cost (one segment per half, S/2 bytes each, p = 2^(d+1) - 1 so both subtrees are complete):
// the second of a rank's blocking sends to its two children is received h + G after the first
// is posted, G = g(S/2) when eager (algorithms.hpp) and o_s + 3L + w(S/2) by rendezvous (the
// first send returns once its data is in); the second half
// reaches the deepest rank of the right subtree last, at d (h + G), and its swap costs one more
// message: T = d (h + G) + h, with h = h(S/2).
#include <algorithm>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

struct Half {
  char* base;
  std::size_t bytes, segment;
  std::size_t count() const { return segment ? (bytes + segment - 1) / segment : 1; }
  char* at(std::size_t i) const { return base + i * segment; }
  std::size_t length(std::size_t i) const { return std::min(segment, bytes - i * segment); }
};

// An inner rank of one subtree keeps one receive ahead and forwards each segment with blocking
// sends to its children; a leaf receives one segment after the other.
void relay_half(CollContext& c, const Tree& t, const Half& h) {
  std::size_t n = h.count();
  if (t.children.empty()) {
    for (std::size_t i = 0; i < n; ++i) c.recv(t.parent, kTagBcast, h.at(i), h.length(i));
    return;
  }
  Request* pending = c.irecv(t.parent, kTagBcast, h.at(0), h.length(0));
  for (std::size_t i = 1; i <= n; ++i) {
    Request* next = i < n ? c.irecv(t.parent, kTagBcast, h.at(i), h.length(i)) : nullptr;
    c.wait(pending);
    for (int child : t.children) c.send(child, kTagBcast, h.at(i - 1), h.length(i - 1));
    pending = next;
  }
}

void root_sends_halves(CollContext& c, const Tree& t, const Half* half) {
  std::size_t n = std::max(half[0].count(), half[1].count());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < t.children.size() && k < 2; ++k)
      if (i < half[k].count()) c.send(t.children[k], kTagBcast, half[k].at(i), half[k].length(i));
}

}  // namespace

void bcast_split_binary_tree(CollContext& c, void* buf, std::size_t bytes, int root,
                             std::size_t segment) {
  int n = c.size(), r = c.rank();
  std::size_t first = (bytes + 1) / 2;
  if (n == 1 || bytes < 2 || segment > bytes - first) {  // too small to split: a pipeline
    bcast_tree(c, buf, bytes, root, TreeShape{TreeKind::Chain, 1}, segment);
    return;
  }
  auto* b = static_cast<char*>(buf);
  std::size_t seg0 = segment ? segment : first, seg1 = segment ? segment : bytes - first;
  Half half[2] = {{b, first, seg0}, {b + first, bytes - first, seg1}};
  Tree t = build_tree(TreeShape{TreeKind::Kary, 2}, n, r, root);
  int s = (r - root + n) % n;
  int side = (s + 1) % 2;  // 0: left subtree (odd relative ranks), 1: right (and the root)
  if (r == root)
    root_sends_halves(c, t, half);
  else
    relay_half(c, t, half[side]);
  // Swap halves with the twin in the other subtree.
  int twin = side == 0 ? (r + 1) % n : (r + n - 1) % n;
  if (n % 2 == 0 && r == root) {
    c.send((root + n - 1) % n, kTagBcast, half[1].base, half[1].bytes);
  } else if (n % 2 == 0 && s == n - 1) {
    c.recv(root, kTagBcast, half[1].base, half[1].bytes);
  } else if (r != root) {
    const Half& mine = half[side];
    const Half& other = half[1 - side];
    c.sendrecv(twin, mine.base, mine.bytes, twin, other.base, other.bytes, kTagBcast);
  }
}

}  // namespace simmpi::mpi
