// SPDX-License-Identifier: Apache-2.0
// Pipelined tree reduction, Open MPI's ompi_coll_base_reduce_generic: the vector is cut into
// segments that are combined up a tree (tree_shapes.hpp). An inner rank keeps one receive ahead
// (from its next child, or the first child of the next segment) while it combines the data in
// hand, and forwards each finished segment to its parent with a blocking send; a leaf sends its
// segments with blocking sends. Each child's data is the left operand, so on the in-order binary
// tree (rooted at p - 1, children holding the ranks just below and the lowest ranks) the order
// is that of the ranks for any operation; the result then moves from p - 1 to the root.
// Open MPI's "chain", "pipeline", "binary", "binomial" and "in-order binary" reductions are this
// algorithm on their trees.
// Cost with one segment (h = h(S), w = w(S), root 0): the data of c children sent at the same
// time shares the parent's link and arrives together, c w after it started; the parent keeps
// two receives posted (the next one ahead), so the i-th (from 0) completes (floor(i/2) + 1) o_r
// after that. On the in-order binomial tree with p = 2^k (children finish their subtrees one h
// apart), T = lg h; eager: on the binary tree with p = 2^(d+1) - 1, T = d (h + w); on the
// in-order binary tree the same plus the move from p - 1 to the root, T = d (h + w) + h; on c
// chains of m ranks, T = m h + (c - 1) w + (ceil(c/2) - 1) o_r. With n eager segments of s bytes
// on the chain of p ranks, as in the pipelined broadcast (bcast_tree.cpp): w(s) <= o_s,
// T = (p - 1) h(s) + (n - 1) o_s; n = 2 and w(s) > o_s, T = (p - 1) (h(s) + w(s) - o_s) + o_s.
#include <algorithm>
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

struct Segments {
  int count, size;  // elements
  int n() const { return (count + size - 1) / size; }
  int length(int i) const { return std::min(size, count - i * size); }
};

// An inner rank: receives and combines its children's segments into `acc`, sending each
// finished segment to the parent (unless it is the tree's root).
void combine_children(CollContext& c, const Tree& t, char* acc, const Segments& seg,
                      const Reduction& red) {
  std::size_t seg_bytes = red.bytes(seg.size);
  std::vector<char> in[2] = {std::vector<char>(seg_bytes), std::vector<char>(seg_bytes)};
  Request* req[2] = {nullptr, nullptr};
  int req_seg[2] = {0, 0};
  int k = 0, nchild = static_cast<int>(t.children.size());
  for (int s = 0; s <= seg.n(); ++s) {
    for (int i = 0; i < nchild; ++i) {
      if (s < seg.n()) {
        req[k] = c.irecv(t.children[static_cast<std::size_t>(i)], kTagReduce, in[k].data(),
                         red.bytes(seg.length(s)));
        req_seg[k] = s;
      }
      if (Request* prev = req[k ^ 1]) {
        int ps = req_seg[k ^ 1];
        c.wait(prev);
        req[k ^ 1] = nullptr;
        char* target = acc + red.bytes(ps * seg.size);
        red.apply(in[k ^ 1].data(), target, seg.length(ps));
        if (i == 0 && t.parent >= 0)
          c.send(t.parent, kTagReduce, target, red.bytes(seg.length(ps)));
      }
      if (s == seg.n()) return;
      k ^= 1;
    }
  }
}

}  // namespace

void reduce_tree(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                 const Reduction& red, int root, const TreeShape& shape, int segment_count) {
  int n = c.size();
  int tree_root = shape.kind == TreeKind::InOrderBinary ? n - 1 : root;
  Tree t = build_tree(shape, n, c.rank(), tree_root);
  // At least one element per segment: a reduction of no elements has no segments (n() = 0).
  Segments seg{count, std::max(1, segment_count > 0 ? std::min(segment_count, count) : count)};
  std::size_t bytes = red.bytes(count);
  std::vector<char> acc;
  if (t.children.empty()) {
    for (int s = 0; s < seg.n() && t.parent >= 0; ++s)
      c.send(t.parent, kTagReduce, static_cast<const char*>(sendbuf) + red.bytes(s * seg.size),
             red.bytes(seg.length(s)));
    if (t.parent >= 0 && c.rank() != root) return;
    acc.assign(static_cast<const char*>(sendbuf), static_cast<const char*>(sendbuf) + bytes);
  } else {
    acc.assign(static_cast<const char*>(sendbuf), static_cast<const char*>(sendbuf) + bytes);
    combine_children(c, t, acc.data(), seg, red);
  }
  if (tree_root != root) {  // the in-order tree ends at p - 1
    if (c.rank() == tree_root) c.send(root, kTagRelay, acc.data(), bytes);
    if (c.rank() == root) c.recv(tree_root, kTagRelay, acc.data(), bytes);
  }
  if (c.rank() == root && bytes) std::memcpy(recvbuf, acc.data(), bytes);
}

}  // namespace simmpi::mpi
