// SPDX-License-Identifier: Apache-2.0
// The OTF2 events simmpi-replay makes no call for: those with nothing to replay (buffer
// flushes, metrics, parameters, samples, program begin and end, communicator events: the
// definitions give the communicators) are ignored; those it cannot replay (one-sided, I/O,
// threads, OpenMP, nonblocking collectives, cancellations, measurement gaps, calling contexts)
// go to `refuse` with their OTF2 name.
#pragma once

#include <otf2/otf2.h>

namespace simmpi::replay {

using RefuseEvent = OTF2_CallbackCode (*)(OTF2_LocationRef location, OTF2_TimeStamp time,
                                          void* user_data, const char* event);
// Registers them on `cb`; `refuse` is called for the second kind (one converter at a time).
void set_unreplayed_events(OTF2_GlobalEvtReaderCallbacks* cb, RefuseEvent refuse);

}  // namespace simmpi::replay
