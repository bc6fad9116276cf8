// SPDX-License-Identifier: Apache-2.0
// The global definitions of an OTF2 archive that its replay needs (otf2_converter.hpp).
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simmpi::replay {

struct Otf2Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  std::vector<std::uint64_t> members;
};

// What the global definitions say.
struct Otf2Definitions {
  std::map<OTF2_StringRef, std::string> strings;
  std::map<OTF2_RegionRef, std::string> regions;  // MPI regions only: their names
  std::map<OTF2_LocationRef, OTF2_LocationGroupRef> locations;
  std::map<OTF2_GroupRef, Otf2Group> groups;
  std::map<OTF2_CommRef, OTF2_GroupRef> comms;
  std::uint64_t resolution = 1, offset = 0;
};

// Reads them from the archive whose anchor file is `anchor`. Throws Otf2Error.
Otf2Definitions read_otf2_definitions(const std::string& anchor);

}  // namespace simmpi::replay
