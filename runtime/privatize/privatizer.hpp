// SPDX-License-Identifier: Apache-2.0
// Per-rank global variables. Each rank sees its own copy of the executable's writable data
// (.data and .bss); only one copy is live in the real segment at a time, and activate() makes
// a given rank's copy the live one before that rank runs. Copies are switched lazily: running
// the same rank twice in a row costs nothing.
//
// Two methods (runtime.privatize), measured in tools/bench/privatize_bench.cpp:
//  - copy: memcpy the segment out to the previous rank's buffer and in from the next one;
//  - mmap: each rank owns pages of one memory file, mapped over the segment on a switch.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "runtime/privatize/program_image.hpp"

namespace simmpi::runtime {

class Privatizer {
 public:
  virtual ~Privatizer() = default;
  // Makes `rank`'s globals live. A rank activated for the first time starts from the pristine
  // image (its constructors have not run yet).
  virtual void activate(int rank) = 0;
  // The address where `rank`'s copy of `addr` currently lives: `addr` itself unless `addr` is a
  // global of the program and another rank's copy is live. Payload copies between ranks use it.
  virtual void* translate(int rank, void* addr) = 0;
  // Puts back the image the process had before the simulation (for the final exit).
  virtual void restore_global() = 0;
  // Bytes of private data each rank holds.
  virtual std::size_t bytes_per_rank() const = 0;
  // False when ranks share the process's globals (method "none", or nothing captured): then the
  // globals were constructed once and must not be constructed again per rank.
  virtual bool is_private() const { return true; }
};

// `mode` is "auto", "copy", "mmap" or "none" (runtime.privatize). Returns a no-op privatizer when
// the image was not captured (a unit test) or for "none".
std::unique_ptr<Privatizer> make_privatizer(const std::string& mode, const ProgramImage& image,
                                            int ranks);

}  // namespace simmpi::runtime
