// SPDX-License-Identifier: Apache-2.0
// An OTF2 archive (what Score-P records on real machines) as a call trace that simmpi-replay
// runs (docs/replay.md): each MPI rank's MPI calls from its MPI events, the time between calls
// as compute (the measured time times a host-to-target ratio), read with Debian's OTF2 library.
//
// What an archive gives is less than a recorded run: messages carry bytes (not types),
// collectives their byte totals (Score-P's convention, scorep_mpi_coll's bytes), nonblocking
// receives their envelope only when they complete (the archive is read twice), communicators
// their members but not how they were made (the replay makes each one with MPI_Comm_create from
// MPI_COMM_WORLD after MPI_Init). v-collectives become their uniform forms with the mean block.
// Events simmpi does not replay (one-sided, I/O, threads, OpenMP...) are errors naming the event,
// the rank and its time, unless the caller allows skipping them (then they are counted).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "tools/replay/conversion.hpp"

namespace simmpi::replay {

class Otf2Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads the archive whose anchor file is `anchor` (ARCHIVE/traces.otf2) and writes the call
// trace `directory` (which must not exist). Throws Otf2Error.
ConversionSummary convert_otf2(const std::string& anchor, const std::string& directory,
                               const ConversionOptions& options);

}  // namespace simmpi::replay
