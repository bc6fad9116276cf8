// SPDX-License-Identifier: Apache-2.0
// Ring allreduce (Patarasuk and Yuan 2009; Open MPI's "ring" and "segmented_ring"): the vector
// is cut into p blocks (the first count % p one element longer); in p - 1 steps each rank passes
// a partial block to its right neighbour, which adds its own contribution, so that each rank ends
// with one fully reduced block; p - 1 more steps circulate the reduced blocks. Each step keeps
// the next receive posted before it waits for the current one. The segmented variant runs the
// first phase once per slice of the blocks (segments of `segment_count` elements), which bounds
// the size of each message. Commutative operations only; with fewer elements than ranks Open MPI
// falls back to recursive doubling, and so does this.
// Cost (count divisible by p, b = S/p, every block eager or every one rendezvous): each step
// takes one message time, T = 2 (p - 1) h(b); segmented in m slices, T = (p - 1) (m h(b/m) +
// h(b)).
#include <algorithm>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

// Splits `count` into `parts` runs, the first count % parts one longer; returns the run starts.
std::vector<int> split(int count, int parts) {
  std::vector<int> start(static_cast<std::size_t>(parts) + 1, 0);
  for (int i = 0; i < parts; ++i)
    start[static_cast<std::size_t>(i) + 1] =
        start[static_cast<std::size_t>(i)] + count / parts + (i < count % parts ? 1 : 0);
  return start;
}

// The p - 1 reduction steps over one slice: `piece(b)` gives block b's part of the slice as
// (first element, elements). Rank r ends with block r + 1 reduced.
template <class Piece>
void reduce_steps(CollContext& c, char* buf, const Reduction& red, Piece piece) {
  int n = c.size(), r = c.rank(), right = (r + 1) % n, left = (r + n - 1) % n;
  int biggest = 0;
  for (int b = 0; b < n; ++b) biggest = std::max(biggest, piece(b).second);
  std::vector<char> in[2] = {std::vector<char>(red.bytes(biggest)),
                             std::vector<char>(red.bytes(biggest))};
  int k = 0;
  Request* pending =
      c.irecv(left, kTagAllreduce, in[k].data(), red.bytes(piece((r + n - 1) % n).second));
  auto [first, len] = piece(r);
  c.send(right, kTagAllreduce, buf + red.bytes(first), red.bytes(len));
  for (int step = 1; step < n; ++step) {
    int block = (r + n - step) % n;  // the block `pending` brings
    Request* next = nullptr;
    if (step < n - 1)
      next = c.irecv(left, kTagAllreduce, in[k ^ 1].data(),
                     red.bytes(piece((block + n - 1) % n).second));
    c.wait(pending);
    auto [at, elems] = piece(block);
    red.apply(in[k].data(), buf + red.bytes(at), elems);
    if (step < n - 1) c.send(right, kTagAllreduce, buf + red.bytes(at), red.bytes(elems));
    pending = next;
    k ^= 1;
  }
}

}  // namespace

void allreduce_ring(CollContext& c, void* buf, int count, const Reduction& red, int segment_count) {
  int n = c.size(), r = c.rank();
  if (n == 1) return;
  if (count < n) {
    allreduce_recursive_doubling(c, buf, count, red);
    return;
  }
  auto* b = static_cast<char*>(buf);
  std::vector<int> block = split(count, n);
  int biggest = block[1] - block[0];
  int slices = segment_count > 0 && count >= n * segment_count
                   ? (biggest + segment_count - 1) / segment_count
                   : 1;
  for (int s = 0; s < slices; ++s)
    reduce_steps(c, b, red, [&](int i) {
      auto u = static_cast<std::size_t>(i);
      std::vector<int> part = split(block[u + 1] - block[u], slices);
      return std::pair<int, int>{
          block[u] + part[static_cast<std::size_t>(s)],
          part[static_cast<std::size_t>(s) + 1] - part[static_cast<std::size_t>(s)]};
    });
  // Circulate: in step k send block r + 1 - k, receive block r - k.
  int right = (r + 1) % n, left = (r + n - 1) % n;
  for (int k = 0; k < n - 1; ++k) {
    auto out = static_cast<std::size_t>((r + 1 - k + n) % n),
         in = static_cast<std::size_t>((r - k + n) % n);
    c.sendrecv(right, b + red.bytes(block[out]), red.bytes(block[out + 1] - block[out]), left,
               b + red.bytes(block[in]), red.bytes(block[in + 1] - block[in]), kTagAllreduce);
  }
}

}  // namespace simmpi::mpi
