// SPDX-License-Identifier: Apache-2.0
// The communication trees of the tree-based collectives, as Open MPI builds them
// (ompi/mca/coll/base/coll_base_topo.c): a rank's parent and its children in the order it
// serves them. Every shape is rooted at `root` by shifting ranks (the in-order binary tree is
// always rooted at size - 1).
#pragma once

#include <vector>

namespace simmpi::mpi {

enum class TreeKind {
  Chain,            // `fanout` chains hanging from the root; fanout 1 is the pipeline
  Kary,             // complete `fanout`-ary tree in level order (Open MPI's binary tree: 2)
  Binomial,         // children farthest (largest subtree) first, as a broadcast serves them
  InOrderBinomial,  // the same tree, children nearest (smallest subtree) first, for gathers
  Knomial,          // `fanout`-nomial tree (radix), children farthest first
  InOrderBinary,    // binary tree whose subtrees hold consecutive ranks, rooted at size - 1
};

struct TreeShape {
  TreeKind kind;
  int fanout = 2;  // chains, arity or radix
};

struct Tree {
  int parent = -1;            // -1 at the root
  std::vector<int> children;  // in the order the rank sends to (or receives from) them
};

Tree build_tree(const TreeShape& shape, int size, int rank, int root);

}  // namespace simmpi::mpi
