// SPDX-License-Identifier: Apache-2.0
// Tree shapes of the tree-based collectives (Open MPI's coll_base_topo.c, rewritten).
#include "libsimmpi/coll/tree_shapes.hpp"

#include <algorithm>

namespace simmpi::mpi {
namespace {

int shifted(int rank, int root, int size) {
  return (rank - root + size) % size;
}
int unshifted(int s, int root, int size) {
  return (s + root) % size;
}

// The p - 1 non-root ranks split into min(fanout, p - 1) consecutive chains, the first
// (p - 1) % chains of them one longer.
Tree chain(int fanout, int size, int s) {
  Tree t;
  int n = size - 1, chains = std::min(fanout, n);
  int len = n / chains, longer = n % chains;
  auto head = [&](int c) { return 1 + c * len + std::min(c, longer); };
  if (s == 0) {
    for (int c = 0; c < chains; ++c) t.children.push_back(head(c));
    return t;
  }
  int c = 0;
  while (c + 1 < chains && head(c + 1) <= s) ++c;
  t.parent = s == head(c) ? 0 : s - 1;
  int end = head(c) + len + (c < longer ? 1 : 0);
  if (s + 1 < end) t.children.push_back(s + 1);
  return t;
}

// Level order: level l holds fanout^l ranks; rank s at level l has children s + f^l * (i + 1).
Tree kary(int f, int size, int s) {
  Tree t;
  int level_start = 0, width = 1;  // first rank and width of s's level
  while (level_start + width <= s) level_start += width, width *= f;
  for (int i = 1; i <= f && s + width * i < size; ++i) t.children.push_back(s + width * i);
  if (s > 0) {
    int parent = s;
    while (parent >= level_start) parent -= width / f;
    t.parent = parent;
  }
  return t;
}

Tree knomial(int radix, int size, int s) {
  Tree t;
  int mask = 1;
  while (mask < size) {
    if (s % (radix * mask)) {
      t.parent = s / (radix * mask) * (radix * mask);
      break;
    }
    mask *= radix;
  }
  for (mask /= radix; mask > 0; mask /= radix)
    for (int r = 1; r < radix; ++r)
      if (s + mask * r < size) t.children.push_back(s + mask * r);
  return t;
}

Tree in_order_binomial(int size, int s) {
  Tree t;
  for (int mask = 1; mask < size; mask <<= 1) {
    int remote = s ^ mask;
    if (remote < s) {
      t.parent = remote;
      break;
    }
    if (remote < size) t.children.push_back(remote);
  }
  return t;
}

// Ranks [0, size) with the root size - 1. A subtree of n ranks starting at `base` has its top
// at base + n - 1; its right subtree holds the lowest n/2 ranks (none when n <= 2) and its left
// subtree the ranks between them and the top.
Tree in_order_binary(int size, int rank) {
  Tree t;
  int base = 0;
  for (int n = size;;) {
    int top = base + n - 1, right_n = n > 2 ? n / 2 : 0, left_n = n - 1 - right_n;
    int left = left_n > 0 ? top - 1 : -1, right = right_n > 0 ? base + right_n - 1 : -1;
    if (rank == top) {
      if (left >= 0) t.children.push_back(left);
      if (right >= 0) t.children.push_back(right);
      return t;
    }
    if (rank >= base + right_n) {
      if (rank == left) t.parent = top;
      base += right_n;
      n = left_n;
    } else {
      if (rank == right) t.parent = top;
      n = right_n;
    }
  }
}

}  // namespace

Tree build_tree(const TreeShape& shape, int size, int rank, int root) {
  if (size == 1) return Tree{};
  if (shape.kind == TreeKind::InOrderBinary) return in_order_binary(size, rank);
  int s = shifted(rank, root, size);
  Tree t;
  switch (shape.kind) {
    case TreeKind::Chain:
      t = chain(shape.fanout, size, s);
      break;
    case TreeKind::Kary:
      t = kary(shape.fanout, size, s);
      break;
    case TreeKind::Binomial:
      t = knomial(2, size, s);
      break;
    case TreeKind::InOrderBinomial:
      t = in_order_binomial(size, s);
      break;
    case TreeKind::Knomial:
      t = knomial(shape.fanout, size, s);
      break;
    case TreeKind::InOrderBinary:
      break;
  }
  if (t.parent >= 0) t.parent = unshifted(t.parent, root, size);
  for (int& c : t.children) c = unshifted(c, root, size);
  return t;
}

}  // namespace simmpi::mpi
