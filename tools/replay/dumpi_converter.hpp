// SPDX-License-Identifier: Apache-2.0
// An SST DUMPI trace (what libdumpi records on real machines; CODES and SST/macro replay it) as a
// call trace that simmpi-replay runs (docs/replay.md): each rank's MPI calls from its records
// (dumpi_file.hpp reads them), the wall-clock time between two calls as compute (the measured
// time times a host-to-target ratio, as for measured own code).
//
// DUMPI records what a simulation needs of point-to-point calls (counts, datatypes, peers, tags,
// communicators, requests, the statuses of completions), of collectives (counts, datatypes,
// operations, roots) and of MPI_Comm_dup/split, so those replay as recorded. Datatypes become
// their bytes (the trace's table of sizes) unless predefined. What the replay cannot make
// (one-sided, I/O, persistent requests, threads' calls...) is an error naming the record, the
// rank and its time, unless the caller allows skipping them; then they are counted, and their
// measured time passes like compute.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "tools/replay/conversion.hpp"

namespace simmpi::replay {

// Reads the DUMPI trace whose metadata file is `meta` (PREFIX.meta, beside PREFIX-0000.bin...)
// and writes the call trace `directory` (which must not exist). Throws DumpiError.
ConversionSummary convert_dumpi(const std::string& meta, const std::string& directory,
                                const ConversionOptions& options);

}  // namespace simmpi::replay
