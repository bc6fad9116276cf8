// SPDX-License-Identifier: Apache-2.0
#include "tools/replay/otf2_unreplayed_events.hpp"

namespace simmpi::replay {
namespace {

// Events with nothing to replay (buffer flushes, metrics, parameters, samples, program begin
// and end, communicator creation events: the definitions give the communicators).
template <typename F>
struct Ignore;
template <typename... A>
struct Ignore<OTF2_CallbackCode (*)(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*,
                                    A...)> {
  static OTF2_CallbackCode call(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*,
                                A...) {
    return OTF2_CALLBACK_SUCCESS;
  }
};
// Events the replay cannot make: named in the error (or counted when skipping is allowed).
RefuseEvent g_refuse = nullptr;

template <typename F, const char* Name>
struct Refuse;
template <const char* Name, typename... A>
struct Refuse<OTF2_CallbackCode (*)(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*,
                                    A...),
              Name> {
  static OTF2_CallbackCode call(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                OTF2_AttributeList*, A...) {
    return g_refuse(l, t, self, Name);
  }
};

}  // namespace
}  // namespace simmpi::replay

// One line per OTF2 event kind (the library's own names).
#define SIMMPI_OTF2_IGNORE(Event)                     \
  OTF2_GlobalEvtReaderCallbacks_Set##Event##Callback( \
      cb, &Ignore<OTF2_GlobalEvtReaderCallback_##Event>::call)
#define SIMMPI_OTF2_REFUSE(Event)                                       \
  do {                                                                  \
    static constexpr char name[] = #Event;                              \
    OTF2_GlobalEvtReaderCallbacks_Set##Event##Callback(                 \
        cb, &Refuse<OTF2_GlobalEvtReaderCallback_##Event, name>::call); \
  } while (0)

namespace simmpi::replay {

void set_unreplayed_events(OTF2_GlobalEvtReaderCallbacks* cb, RefuseEvent refuse) {
  g_refuse = refuse;
  SIMMPI_OTF2_IGNORE(BufferFlush);
  SIMMPI_OTF2_IGNORE(Metric);
  SIMMPI_OTF2_IGNORE(ParameterString);
  SIMMPI_OTF2_IGNORE(ParameterInt);
  SIMMPI_OTF2_IGNORE(ParameterUnsignedInt);
  SIMMPI_OTF2_IGNORE(CallingContextSample);
  SIMMPI_OTF2_IGNORE(ProgramBegin);
  SIMMPI_OTF2_IGNORE(ProgramEnd);
  SIMMPI_OTF2_IGNORE(CommCreate);
  SIMMPI_OTF2_IGNORE(CommDestroy);
  SIMMPI_OTF2_REFUSE(MeasurementOnOff);
  SIMMPI_OTF2_REFUSE(MpiRequestCancelled);
  SIMMPI_OTF2_REFUSE(CallingContextEnter);
  SIMMPI_OTF2_REFUSE(CallingContextLeave);
  SIMMPI_OTF2_REFUSE(OmpFork);
  SIMMPI_OTF2_REFUSE(OmpJoin);
  SIMMPI_OTF2_REFUSE(OmpAcquireLock);
  SIMMPI_OTF2_REFUSE(OmpReleaseLock);
  SIMMPI_OTF2_REFUSE(OmpTaskCreate);
  SIMMPI_OTF2_REFUSE(OmpTaskSwitch);
  SIMMPI_OTF2_REFUSE(OmpTaskComplete);
  SIMMPI_OTF2_REFUSE(RmaWinCreate);
  SIMMPI_OTF2_REFUSE(RmaWinDestroy);
  SIMMPI_OTF2_REFUSE(RmaCollectiveBegin);
  SIMMPI_OTF2_REFUSE(RmaCollectiveEnd);
  SIMMPI_OTF2_REFUSE(RmaGroupSync);
  SIMMPI_OTF2_REFUSE(RmaRequestLock);
  SIMMPI_OTF2_REFUSE(RmaAcquireLock);
  SIMMPI_OTF2_REFUSE(RmaTryLock);
  SIMMPI_OTF2_REFUSE(RmaReleaseLock);
  SIMMPI_OTF2_REFUSE(RmaSync);
  SIMMPI_OTF2_REFUSE(RmaWaitChange);
  SIMMPI_OTF2_REFUSE(RmaPut);
  SIMMPI_OTF2_REFUSE(RmaGet);
  SIMMPI_OTF2_REFUSE(RmaAtomic);
  SIMMPI_OTF2_REFUSE(RmaOpCompleteBlocking);
  SIMMPI_OTF2_REFUSE(RmaOpCompleteNonBlocking);
  SIMMPI_OTF2_REFUSE(RmaOpTest);
  SIMMPI_OTF2_REFUSE(RmaOpCompleteRemote);
  SIMMPI_OTF2_REFUSE(ThreadFork);
  SIMMPI_OTF2_REFUSE(ThreadJoin);
  SIMMPI_OTF2_REFUSE(ThreadTeamBegin);
  SIMMPI_OTF2_REFUSE(ThreadTeamEnd);
  SIMMPI_OTF2_REFUSE(ThreadAcquireLock);
  SIMMPI_OTF2_REFUSE(ThreadReleaseLock);
  SIMMPI_OTF2_REFUSE(ThreadTaskCreate);
  SIMMPI_OTF2_REFUSE(ThreadTaskSwitch);
  SIMMPI_OTF2_REFUSE(ThreadTaskComplete);
  SIMMPI_OTF2_REFUSE(ThreadCreate);
  SIMMPI_OTF2_REFUSE(ThreadBegin);
  SIMMPI_OTF2_REFUSE(ThreadWait);
  SIMMPI_OTF2_REFUSE(ThreadEnd);
  SIMMPI_OTF2_REFUSE(IoCreateHandle);
  SIMMPI_OTF2_REFUSE(IoDestroyHandle);
  SIMMPI_OTF2_REFUSE(IoDuplicateHandle);
  SIMMPI_OTF2_REFUSE(IoSeek);
  SIMMPI_OTF2_REFUSE(IoChangeStatusFlags);
  SIMMPI_OTF2_REFUSE(IoDeleteFile);
  SIMMPI_OTF2_REFUSE(IoOperationBegin);
  SIMMPI_OTF2_REFUSE(IoOperationTest);
  SIMMPI_OTF2_REFUSE(IoOperationIssued);
  SIMMPI_OTF2_REFUSE(IoOperationComplete);
  SIMMPI_OTF2_REFUSE(IoOperationCancelled);
  SIMMPI_OTF2_REFUSE(IoAcquireLock);
  SIMMPI_OTF2_REFUSE(IoReleaseLock);
  SIMMPI_OTF2_REFUSE(IoTryLock);
}

}  // namespace simmpi::replay
