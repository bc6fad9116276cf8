// SPDX-License-Identifier: Apache-2.0
#include "tools/replay/otf2_definitions.hpp"

#include "tools/replay/otf2_converter.hpp"

namespace simmpi::replay {
namespace {

struct Reader {
  OTF2_Reader* r;
  explicit Reader(const std::string& anchor) : r(OTF2_Reader_Open(anchor.c_str())) {}
  ~Reader() {
    if (r) OTF2_Reader_Close(r);
  }
};

OTF2_CallbackCode on_string(void* self, OTF2_StringRef id, const char* s) {
  static_cast<Otf2Definitions*>(self)->strings[id] = s;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_clock(void* self, std::uint64_t resolution, std::uint64_t offset,
                           std::uint64_t, std::uint64_t) {
  auto& d = *static_cast<Otf2Definitions*>(self);
  d.resolution = resolution ? resolution : 1;
  d.offset = offset;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* self, OTF2_RegionRef id, OTF2_StringRef name, OTF2_StringRef,
                            OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm paradigm,
                            OTF2_RegionFlag, OTF2_StringRef, std::uint32_t, std::uint32_t) {
  auto& d = *static_cast<Otf2Definitions*>(self);
  const std::string& n = d.strings[name];
  if (paradigm == OTF2_PARADIGM_MPI || n.rfind("MPI_", 0) == 0) d.regions[id] = n;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* self, OTF2_LocationRef id, OTF2_StringRef,
                              OTF2_LocationType type, std::uint64_t, OTF2_LocationGroupRef group) {
  if (type == OTF2_LOCATION_TYPE_CPU_THREAD)
    static_cast<Otf2Definitions*>(self)->locations[id] = group;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* self, OTF2_GroupRef id, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag, std::uint32_t n,
                           const std::uint64_t* members) {
  static_cast<Otf2Definitions*>(self)->groups[id] =
      Otf2Group{type, paradigm, std::vector<std::uint64_t>(members, members + n)};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* self, OTF2_CommRef id, OTF2_StringRef, OTF2_GroupRef group,
                          OTF2_CommRef, OTF2_CommFlag) {
  static_cast<Otf2Definitions*>(self)->comms[id] = group;
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

Otf2Definitions read_otf2_definitions(const std::string& anchor) {
  Otf2Definitions defs;
  Reader rd(anchor);
  if (!rd.r)
    throw Otf2Error(anchor + ": cannot open it as an OTF2 archive (OTF2_Reader_Open failed)");
  OTF2_Reader_SetSerialCollectiveCallbacks(rd.r);
  OTF2_GlobalDefReader* g = OTF2_Reader_GetGlobalDefReader(rd.r);
  if (!g) throw Otf2Error(anchor + ": no global definitions");
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, &on_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, &on_clock);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, &on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, &on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, &on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, &on_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(rd.r, g, cb, &defs);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  std::uint64_t n = 0;
  if (OTF2_Reader_ReadAllGlobalDefinitions(rd.r, g, &n) != OTF2_SUCCESS)
    throw Otf2Error(anchor + ": its global definitions cannot be read");
  return defs;
}

}  // namespace simmpi::replay
