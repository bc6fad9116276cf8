// SPDX-License-Identifier: Apache-2.0
// Per-rank program state. Each rank sees its own copy of every region of the program's state
// (ProgramImage: the executable's writable data, the privatized libraries' data, the
// thread-local blocks of both); only one copy of each is live at its real address at a time,
// and activate() makes a given rank's copies the live ones before that rank runs. Copies are
// switched lazily: running the same rank twice in a row costs nothing.
//
// Two methods, chosen per region (runtime.privatize), measured in tools/bench/spine_bench.cpp:
//  - copy: memcpy the region out to the previous rank's buffer and in from the next one;
//  - mmap: each rank owns pages of one memory file, mapped over the region on a switch (whole
//    pages of a data segment only; thread-local blocks are always copied).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/privatize/program_image.hpp"

namespace simmpi::runtime {

class Privatizer {
 public:
  virtual ~Privatizer() = default;
  // Makes `rank`'s copies live. A rank activated for the first time starts from each region's
  // fresh image (the executable's constructors have not run yet).
  virtual void activate(int rank) = 0;
  // The address where `rank`'s copy of `addr` currently lives: `addr` itself unless `addr` is
  // in a privatized region and another rank's copy is live. Payload copies between ranks use it.
  virtual void* translate(int rank, void* addr) = 0;
  // Puts back the image the process had before the simulation (for the final exit).
  virtual void restore_global() = 0;
  // Bytes of private data each rank holds.
  virtual std::size_t bytes_per_rank() const = 0;
  // False when ranks share the process's globals (method "none", or nothing captured): then the
  // globals were constructed once and must not be constructed again per rank.
  virtual bool is_private() const { return true; }
  // Privatizes regions found during the run (a library the program dlopened): every rank's copy
  // starts from the region's fresh image, which is what the live bytes hold now.
  virtual void add_regions(std::vector<PrivateRegion> regions) = 0;
};

// `mode` is "auto", "copy", "mmap" or "none" (runtime.privatize). Privatizes image.regions();
// returns a no-op privatizer when the image was not captured (a unit test) or for "none".
std::unique_ptr<Privatizer> make_privatizer(const std::string& mode, const ProgramImage& image,
                                            int ranks);

}  // namespace simmpi::runtime
