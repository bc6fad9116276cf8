// SPDX-License-Identifier: Apache-2.0
// OTF2 archive -> call trace (see otf2_converter.hpp).
#include "tools/replay/otf2_converter.hpp"

#include <otf2/otf2.h>

#include <cmath>
#include <deque>
#include <memory>
#include <vector>

#include "mpi.h"
#include "runtime/core/error.hpp"
#include "runtime/observe/call_trace_writer.hpp"
#include "tools/replay/otf2_definitions.hpp"
#include "tools/replay/otf2_unreplayed_events.hpp"

namespace simmpi::replay {
namespace {

namespace ct = runtime::call_trace;
using ct::Kind;

// A receive's envelope, known when it completes (MpiIrecv), needed when it is posted.
struct Envelope {
  std::uint32_t source, tag;
  OTF2_CommRef comm;
  std::uint64_t bytes;
};

// One MPI event inside the MPI call being read.
struct Event {
  enum Type {
    Send,
    Isend,
    SendDone,
    RecvPosted,
    Recv,
    RecvDone,
    Tested,
    Collective,
    CollectivePosted,  // a nonblocking collective started (its request only)
    CollectiveDone     // ... and completed, with what it was
  } type;
  std::uint32_t peer = 0, tag = 0, root = 0;
  OTF2_CommRef comm = 0;
  std::uint64_t bytes = 0, request = 0, sent = 0, received = 0;
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
};

struct Lane {
  int rank = -1;
  int depth = 0;                          // nesting of MPI regions
  std::string call;                       // the outermost MPI region being read
  OTF2_TimeStamp last_leave = 0;          // end of the last MPI call
  bool called = false;                    // an MPI call was read
  std::vector<Event> events;              // of the call being read
  std::map<std::uint64_t, int> requests;  // the archive's request ids -> recorded handles
  int next_request = 1;
  std::map<std::uint64_t, std::deque<Envelope>> irecvs;  // pass 1's envelopes by request id
  // Pass 1's nonblocking collectives (their CollectiveDone events) by request id: the archive
  // says what the collective was only where it completes.
  std::map<std::uint64_t, std::deque<Event>> nonblocking_collectives;
};

// Collectives that make or free communicators: the replay makes the archive's after MPI_Init.
bool is_handle_collective(OTF2_CollectiveOp op) {
  return op == OTF2_COLLECTIVE_OP_CREATE_HANDLE || op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE ||
         op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE ||
         op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE;
}

int send_mode(const std::string& call) {
  if (call == "MPI_Ssend" || call == "MPI_Issend") return 1;
  if (call == "MPI_Rsend" || call == "MPI_Irsend") return 2;
  return 0;  // buffered sends are timed as standard ones
}

// Calls that only make or free communicators and groups: the replay makes the archive's
// communicators once, after MPI_Init.
bool is_communicator_management(const std::string& call) {
  return call.rfind("MPI_Comm_", 0) == 0 || call.rfind("MPI_Group_", 0) == 0 ||
         call.rfind("MPI_Cart_", 0) == 0 || call == "MPI_Intercomm_create";
}

class Converter {
 public:
  Converter(std::string anchor, const ConversionOptions& options)
      : anchor_(anchor), options_(options) {}
  ConversionSummary run(const std::string& directory);

  // --- callbacks ---
  OTF2_CallbackCode enter(OTF2_LocationRef l, OTF2_TimeStamp t, OTF2_RegionRef r);
  OTF2_CallbackCode leave(OTF2_LocationRef l, OTF2_TimeStamp t, OTF2_RegionRef r);
  OTF2_CallbackCode event(OTF2_LocationRef l, OTF2_TimeStamp t, Event e);
  OTF2_CallbackCode refuse(OTF2_LocationRef l, OTF2_TimeStamp t, const char* name);
  bool collecting() const { return pass_ == 1; }

 private:
  void map_ranks();
  void read_events(int pass);
  [[noreturn]] void fail(const Lane* lane, OTF2_TimeStamp t, const std::string& what) const;
  Lane* lane(OTF2_LocationRef l) {
    auto it = lanes_.find(l);
    return it == lanes_.end() ? nullptr : &it->second;
  }
  std::int64_t comm_handle(const Lane& lane, OTF2_CommRef c, OTF2_TimeStamp t) const;
  int comm_size(OTF2_CommRef c) const;
  int request(Lane& lane, std::uint64_t id, bool make, OTF2_TimeStamp t);
  void write_call(Lane& lane, OTF2_TimeStamp t);
  void write_init(Lane& lane);
  void write_event(Lane& lane, const Event& e, OTF2_TimeStamp t, std::vector<int>& done);
  // `request`: the recorded request of a nonblocking one, kNoRequest for a blocking one.
  void write_collective(Lane& lane, const Event& e, OTF2_TimeStamp t, std::int64_t request);

  std::string anchor_;
  ConversionOptions options_;
  Otf2Definitions defs_;
  std::map<OTF2_LocationRef, Lane> lanes_;  // the MPI ranks' (first) locations
  std::vector<OTF2_CommRef> made_comms_;    // made after MPI_Init, in definition order
  std::unique_ptr<runtime::CallTraceWriter> writer_;
  ConversionSummary summary_;
  int pass_ = 0;
  std::string fail_;
};

// --- events ---

Converter* of(void* self) {
  return static_cast<Converter*>(self);
}

OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, OTF2_AttributeList*,
                           OTF2_RegionRef r) {
  return of(self)->enter(l, t, r);
}
OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, OTF2_AttributeList*,
                           OTF2_RegionRef r) {
  return of(self)->leave(l, t, r);
}
OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, OTF2_AttributeList*,
                          std::uint32_t to, OTF2_CommRef c, std::uint32_t tag, std::uint64_t n) {
  return of(self)->event(l, t, {Event::Send, to, tag, 0, c, n});
}
OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, OTF2_AttributeList*,
                           std::uint32_t to, OTF2_CommRef c, std::uint32_t tag, std::uint64_t n,
                           std::uint64_t req) {
  return of(self)->event(l, t, {Event::Isend, to, tag, 0, c, n, req});
}
OTF2_CallbackCode on_isend_done(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                OTF2_AttributeList*, std::uint64_t req) {
  return of(self)->event(l, t, {Event::SendDone, 0, 0, 0, 0, 0, req});
}
OTF2_CallbackCode on_irecv_posted(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                  OTF2_AttributeList*, std::uint64_t req) {
  return of(self)->event(l, t, {Event::RecvPosted, 0, 0, 0, 0, 0, req});
}
OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, OTF2_AttributeList*,
                          std::uint32_t from, OTF2_CommRef c, std::uint32_t tag, std::uint64_t n) {
  return of(self)->event(l, t, {Event::Recv, from, tag, 0, c, n});
}
OTF2_CallbackCode on_irecv_done(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                OTF2_AttributeList*, std::uint32_t from, OTF2_CommRef c,
                                std::uint32_t tag, std::uint64_t n, std::uint64_t req) {
  return of(self)->event(l, t, {Event::RecvDone, from, tag, 0, c, n, req});
}
OTF2_CallbackCode on_test(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, OTF2_AttributeList*,
                          std::uint64_t req) {
  return of(self)->event(l, t, {Event::Tested, 0, 0, 0, 0, 0, req});
}
OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp, void*,
                                      OTF2_AttributeList*) {
  return OTF2_CALLBACK_SUCCESS;  // the end says everything
}
OTF2_CallbackCode on_collective_end(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                    OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_CommRef c,
                                    std::uint32_t root, std::uint64_t sent,
                                    std::uint64_t received) {
  Event e{Event::Collective, 0, 0, root, c};
  e.op = op;
  e.sent = sent;
  e.received = received;
  return of(self)->event(l, t, e);
}
OTF2_CallbackCode on_nonblocking_collective(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                            OTF2_AttributeList*, std::uint64_t req) {
  return of(self)->event(l, t, {Event::CollectivePosted, 0, 0, 0, 0, 0, req});
}
OTF2_CallbackCode on_nonblocking_collective_done(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                                                 OTF2_AttributeList*, OTF2_CollectiveOp op,
                                                 OTF2_CommRef c, std::uint32_t root,
                                                 std::uint64_t sent, std::uint64_t received,
                                                 std::uint64_t req) {
  Event e{Event::CollectiveDone, 0, 0, root, c, 0, req};
  e.op = op;
  e.sent = sent;
  e.received = received;
  return of(self)->event(l, t, e);
}
OTF2_CallbackCode on_unknown(OTF2_LocationRef l, OTF2_TimeStamp t, void* self,
                             OTF2_AttributeList*) {
  return of(self)->refuse(l, t, "an event record this OTF2 library does not know");
}
OTF2_CallbackCode on_refused(OTF2_LocationRef l, OTF2_TimeStamp t, void* self, const char* event) {
  return of(self)->refuse(l, t, event);
}

void set_event_callbacks(OTF2_GlobalEvtReaderCallbacks* cb) {
  OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(cb, &on_unknown);
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, &on_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, &on_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, &on_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, &on_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, &on_isend_done);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, &on_irecv_posted);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, &on_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, &on_irecv_done);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, &on_test);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, &on_collective_begin);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, &on_collective_end);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb,
                                                                        &on_nonblocking_collective);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
      cb, &on_nonblocking_collective_done);
  set_unreplayed_events(cb, &on_refused);
}

struct Reader {
  OTF2_Reader* r;
  explicit Reader(const std::string& anchor) : r(OTF2_Reader_Open(anchor.c_str())) {}
  ~Reader() {
    if (r) OTF2_Reader_Close(r);
  }
};

void Converter::fail(const Lane* l, OTF2_TimeStamp t, const std::string& what) const {
  std::string where = anchor_;
  if (l)
    where +=
        strprintf(": rank %d at %.9f s", l->rank,
                  static_cast<double>(t - defs_.offset) / static_cast<double>(defs_.resolution));
  throw Otf2Error(where + ": " + what);
}

// MPI rank i is member i of the MPI paradigm's COMM_LOCATIONS group (Score-P and simmpi's own
// writer both say so); its first location is the one replayed.
void Converter::map_ranks() {
  for (const auto& [id, g] : defs_.groups) {
    if (g.type != OTF2_GROUP_TYPE_COMM_LOCATIONS || g.paradigm != OTF2_PARADIGM_MPI) continue;
    for (std::size_t i = 0; i < g.members.size(); ++i) {
      auto loc = defs_.locations.find(g.members[i]);
      if (loc == defs_.locations.end())
        fail(nullptr, 0,
             strprintf("rank %zu's location %llu is not defined", i,
                       static_cast<unsigned long long>(g.members[i])));
      lanes_[loc->first].rank = static_cast<int>(i);
    }
    summary_.ranks = static_cast<int>(g.members.size());
    break;
  }
  if (summary_.ranks == 0) fail(nullptr, 0, "no MPI ranks (no MPI COMM_LOCATIONS group)");
  for (const auto& [id, group] : defs_.comms) {
    auto g = defs_.groups.find(group);
    if (g == defs_.groups.end()) continue;
    const bool world = g->second.members.size() == static_cast<std::size_t>(summary_.ranks);
    if (g->second.type == OTF2_GROUP_TYPE_COMM_GROUP && !world) made_comms_.push_back(id);
  }
}

std::int64_t Converter::comm_handle(const Lane& l, OTF2_CommRef c, OTF2_TimeStamp t) const {
  auto comm = defs_.comms.find(c);
  if (comm == defs_.comms.end()) fail(&l, t, strprintf("communicator %u is not defined", c));
  const Otf2Group& g = defs_.groups.at(comm->second);
  if (g.type == OTF2_GROUP_TYPE_COMM_SELF) return MPI_COMM_SELF;
  if (g.members.size() == static_cast<std::size_t>(summary_.ranks)) return MPI_COMM_WORLD;
  return 0x7e000000 + static_cast<std::int64_t>(c);  // made after MPI_Init (write_init)
}

int Converter::comm_size(OTF2_CommRef c) const {
  auto comm = defs_.comms.find(c);
  if (comm == defs_.comms.end()) return 1;
  const Otf2Group& g = defs_.groups.at(comm->second);
  return g.type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : static_cast<int>(g.members.size());
}

// The recorded handle of the archive's request `id`: a new one when the call makes it.
int Converter::request(Lane& l, std::uint64_t id, bool make, OTF2_TimeStamp t) {
  if (make) return l.requests[id] = l.next_request++;
  auto it = l.requests.find(id);
  if (it == l.requests.end())
    fail(&l, t,
         strprintf("request %llu completes but was never made",
                   static_cast<unsigned long long>(id)));
  return it->second;
}

void Converter::read_events(int pass) {
  pass_ = pass;
  Reader rd(anchor_);
  if (!rd.r) fail(nullptr, 0, "cannot open it as an OTF2 archive");
  OTF2_Reader_SetSerialCollectiveCallbacks(rd.r);
  for (const auto& [loc, l] : lanes_) OTF2_Reader_SelectLocation(rd.r, loc);
  const bool defs = OTF2_Reader_OpenDefFiles(rd.r) == OTF2_SUCCESS;
  OTF2_Reader_OpenEvtFiles(rd.r);
  for (const auto& [loc, l] : lanes_) {
    if (defs) {
      OTF2_DefReader* d = OTF2_Reader_GetDefReader(rd.r, loc);
      if (d) {
        std::uint64_t n = 0;
        OTF2_Reader_ReadAllLocalDefinitions(rd.r, d, &n);
        OTF2_Reader_CloseDefReader(rd.r, d);
      }
    }
    (void)OTF2_Reader_GetEvtReader(rd.r, loc);
  }
  if (defs) OTF2_Reader_CloseDefFiles(rd.r);
  OTF2_GlobalEvtReader* g = OTF2_Reader_GetGlobalEvtReader(rd.r);
  OTF2_GlobalEvtReaderCallbacks* cb = OTF2_GlobalEvtReaderCallbacks_New();
  set_event_callbacks(cb);
  OTF2_Reader_RegisterGlobalEvtCallbacks(rd.r, g, cb, this);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  std::uint64_t n = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalEvents(rd.r, g, &n);
  if (!fail_.empty()) throw Otf2Error(fail_);
  if (status != OTF2_SUCCESS)
    fail(nullptr, 0, std::string("its events cannot be read: ") + OTF2_Error_GetName(status));
  OTF2_Reader_CloseGlobalEvtReader(rd.r, g);
  OTF2_Reader_CloseEvtFiles(rd.r);
}

OTF2_CallbackCode Converter::refuse(OTF2_LocationRef loc, OTF2_TimeStamp t, const char* name) {
  Lane* l = lane(loc);
  if (!l) return OTF2_CALLBACK_SUCCESS;  // a location that is not an MPI rank's first
  if (!options_.skip_unknown) {
    try {
      fail(l, t,
           std::string("event ") + name +
               " cannot be replayed (not implemented); --skip-unknown skips such events");
    } catch (const Otf2Error& e) {
      fail_ = e.what();  // thrown from read_events: never through the C library
    }
    return OTF2_CALLBACK_INTERRUPT;
  }
  if (pass_ == 2) ++summary_.skipped[name];
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Converter::event(OTF2_LocationRef loc, OTF2_TimeStamp, Event e) {
  Lane* l = lane(loc);
  if (!l) return OTF2_CALLBACK_SUCCESS;
  if (pass_ == 1) {  // only the envelopes of nonblocking receives and collectives
    if (e.type == Event::RecvDone)
      l->irecvs[e.request].push_back(Envelope{e.peer, e.tag, e.comm, e.bytes});
    if (e.type == Event::CollectiveDone) l->nonblocking_collectives[e.request].push_back(e);
    return OTF2_CALLBACK_SUCCESS;
  }
  l->events.push_back(e);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Converter::enter(OTF2_LocationRef loc, OTF2_TimeStamp t, OTF2_RegionRef r) {
  Lane* l = lane(loc);
  auto region = defs_.regions.find(r);
  if (!l || region == defs_.regions.end() || pass_ == 1) return OTF2_CALLBACK_SUCCESS;
  if (l->depth++ > 0) return OTF2_CALLBACK_SUCCESS;
  // The compute since the last call (since the clock's start before the first).
  const OTF2_TimeStamp since = l->called ? l->last_leave : defs_.offset;
  if (t > since) {
    const double seconds = static_cast<double>(t - since) / static_cast<double>(defs_.resolution);
    const auto ps =
        static_cast<std::int64_t>(std::llround(seconds * options_.compute_scale * 1e12));
    if (ps > 0) {
      writer_->begin(l->rank, Kind::Sleep);
      writer_->field(l->rank, ps);
    }
  }
  l->call = region->second;
  l->events.clear();
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Converter::leave(OTF2_LocationRef loc, OTF2_TimeStamp t, OTF2_RegionRef r) {
  Lane* l = lane(loc);
  if (!l || !defs_.regions.count(r) || pass_ == 1) return OTF2_CALLBACK_SUCCESS;
  if (l->depth == 0 || --l->depth > 0) return OTF2_CALLBACK_SUCCESS;
  try {
    write_call(*l, t);
  } catch (const Otf2Error& e) {
    fail_ = e.what();
    return OTF2_CALLBACK_INTERRUPT;
  }
  l->last_leave = t;
  l->called = true;
  return OTF2_CALLBACK_SUCCESS;
}

void Converter::write_init(Lane& l) {
  writer_->begin(l.rank, Kind::Init);
  // Every rank makes every communicator, in definition order, from MPI_COMM_WORLD.
  for (OTF2_CommRef c : made_comms_) {
    const Otf2Group& g = defs_.groups.at(defs_.comms.at(c));
    bool member = false;
    for (std::uint64_t m : g.members) member = member || m == static_cast<std::uint64_t>(l.rank);
    writer_->begin(l.rank, Kind::CommCreate);
    writer_->field(l.rank, MPI_COMM_WORLD);
    writer_->field(l.rank, static_cast<std::int64_t>(g.members.size()));
    for (std::uint64_t m : g.members) writer_->field(l.rank, static_cast<std::int64_t>(m));
    writer_->field(l.rank, member ? 0x7e000000 + static_cast<std::int64_t>(c) : MPI_COMM_NULL);
  }
}

// The records of one MPI call from its name and its events: messages and collectives as they
// come, the requests it completed as one MPI_Waitall (MPI_Wait for one).
void Converter::write_call(Lane& l, OTF2_TimeStamp t) {
  const int r = l.rank;
  if (l.call == "MPI_Init" || l.call == "MPI_Init_thread") return write_init(l);
  if (l.call == "MPI_Finalize") return writer_->begin(r, Kind::Finalize);
  if (l.events.empty()) {
    if (is_communicator_management(l.call)) return;  // made after MPI_Init
    writer_->begin(r, Kind::Untraced);
    return writer_->text(r, l.call);
  }
  const Event* send = nullptr;
  const Event* recv = nullptr;
  for (const Event& e : l.events) {
    if (e.type == Event::Send) send = &e;
    if (e.type == Event::Recv) recv = &e;
  }
  if (send && recv && l.call.rfind("MPI_Sendrecv", 0) == 0) {
    writer_->begin(r, Kind::Sendrecv);
    for (std::int64_t v :
         {std::int64_t(send->bytes), std::int64_t{MPI_BYTE}, std::int64_t{send->peer},
          std::int64_t{send->tag}, std::int64_t(recv->bytes), std::int64_t{MPI_BYTE},
          std::int64_t{recv->peer}, std::int64_t{recv->tag}, comm_handle(l, recv->comm, t),
          std::int64_t{recv->peer}, std::int64_t{recv->tag}})
      writer_->field(r, v);
    return;
  }
  std::vector<int> done;
  for (const Event& e : l.events) write_event(l, e, t, done);
  if (done.empty()) return;
  if (done.size() == 1) {
    writer_->begin(r, Kind::Wait);
    return writer_->field(r, done[0]);
  }
  writer_->begin(r, Kind::Waitall);
  writer_->field(r, static_cast<std::int64_t>(done.size()));
  for (int h : done) writer_->field(r, h);
}

void Converter::write_event(Lane& l, const Event& e, OTF2_TimeStamp t, std::vector<int>& done) {
  const int r = l.rank;
  auto fields = [&](std::initializer_list<std::int64_t> v) {
    for (std::int64_t x : v) writer_->field(r, x);
  };
  switch (e.type) {
    case Event::Send:
      writer_->begin(r, Kind::Send);
      return fields({send_mode(l.call), std::int64_t(e.bytes), MPI_BYTE, e.peer, e.tag,
                     comm_handle(l, e.comm, t)});
    case Event::Isend:
      writer_->begin(r, Kind::Isend);
      return fields({send_mode(l.call), std::int64_t(e.bytes), MPI_BYTE, e.peer, e.tag,
                     comm_handle(l, e.comm, t), request(l, e.request, true, t)});
    case Event::RecvPosted: {
      auto q = l.irecvs.find(e.request);
      if (q == l.irecvs.end() || q->second.empty())
        fail(&l, t,
             strprintf("the receive of request %llu never completes in the archive",
                       static_cast<unsigned long long>(e.request)));
      const Envelope m = q->second.front();
      q->second.pop_front();
      writer_->begin(r, Kind::Irecv);
      return fields({std::int64_t(m.bytes), MPI_BYTE, m.source, m.tag, comm_handle(l, m.comm, t),
                     request(l, e.request, true, t)});
    }
    case Event::Recv:
      writer_->begin(r, Kind::Recv);
      return fields({std::int64_t(e.bytes), MPI_BYTE, e.peer, e.tag, comm_handle(l, e.comm, t),
                     e.peer, e.tag});
    case Event::SendDone:
    case Event::RecvDone:
      done.push_back(request(l, e.request, false, t));
      l.requests.erase(e.request);
      return;
    case Event::Tested:
      writer_->begin(r, Kind::Test);
      return fields({request(l, e.request, false, t), 0});
    case Event::Collective:
      return write_collective(l, e, t, ct::kNoRequest);
    case Event::CollectivePosted: {
      auto q = l.nonblocking_collectives.find(e.request);
      if (q == l.nonblocking_collectives.end() || q->second.empty())
        fail(&l, t,
             strprintf("the nonblocking collective of request %llu never completes in the archive",
                       static_cast<unsigned long long>(e.request)));
      const Event what = q->second.front();
      q->second.pop_front();
      if (is_handle_collective(what.op)) return;  // communicators are made after MPI_Init
      return write_collective(l, what, t, request(l, e.request, true, t));
    }
    case Event::CollectiveDone:
      if (is_handle_collective(e.op)) return;
      done.push_back(request(l, e.request, false, t));
      l.requests.erase(e.request);
      return;
  }
}

// Byte totals per Score-P's convention (root of a gather: its block sent, n blocks received...).
// Operations and types are not in the archive: reductions replay MPI_BOR on MPI_BYTE.
void Converter::write_collective(Lane& l, const Event& e, OTF2_TimeStamp t, std::int64_t request) {
  const int r = l.rank, n = comm_size(e.comm);
  const std::int64_t comm = comm_handle(l, e.comm, t), req = request;
  const auto sent = static_cast<std::int64_t>(e.sent), got = static_cast<std::int64_t>(e.received);
  auto fields = [&](Kind k, std::initializer_list<std::int64_t> v) {
    writer_->begin(r, k);
    for (std::int64_t x : v) writer_->field(r, x);
  };
  switch (e.op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      return fields(Kind::Barrier, {comm, req});
    case OTF2_COLLECTIVE_OP_BCAST:
      return fields(Kind::Bcast, {got, MPI_BYTE, e.root, comm, req});
    case OTF2_COLLECTIVE_OP_REDUCE:
      return fields(Kind::Reduce, {0, sent ? sent : got / std::max(n - 1, 1), MPI_BYTE, MPI_BOR,
                                   e.root, comm, req});
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      return fields(Kind::Allreduce, {0, std::max(sent, got), MPI_BYTE, MPI_BOR, comm, req});
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
      return fields(Kind::Gather, {0, sent, MPI_BYTE, got / n, MPI_BYTE, e.root, comm, req});
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
      return fields(Kind::Scatter, {0, sent / n, MPI_BYTE, got, MPI_BYTE, e.root, comm, req});
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      return fields(Kind::Allgather, {0, got / n, MPI_BYTE, got / n, MPI_BYTE, comm, req});
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
      return fields(Kind::Alltoall, {0, sent / n, MPI_BYTE, got / n, MPI_BYTE, comm, req});
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      return fields(Kind::ReduceScatterBlock, {0, got, MPI_BYTE, MPI_BOR, comm, req});
    case OTF2_COLLECTIVE_OP_SCAN:
      return fields(Kind::Scan, {0, sent, MPI_BYTE, MPI_BOR, comm, req});
    case OTF2_COLLECTIVE_OP_EXSCAN:
      return fields(Kind::Exscan, {0, sent, MPI_BYTE, MPI_BOR, comm, req});
    default:
      if (is_handle_collective(e.op)) return;  // communicators are made after MPI_Init
      fail(&l, t,
           strprintf("collective operation %d (%s) cannot be replayed (not implemented)",
                     static_cast<int>(e.op), l.call.c_str()));
  }
}

ConversionSummary Converter::run(const std::string& directory) {
  defs_ = read_otf2_definitions(anchor_);
  map_ranks();
  read_events(1);
  writer_ =
      std::make_unique<runtime::CallTraceWriter>(directory, "the trace directory", summary_.ranks);
  read_events(2);
  for (const auto& [loc, l] : lanes_)
    if (l.depth > 0) fail(&l, l.last_leave, "the archive ends inside " + l.call);
  std::string error;
  if (!writer_->finish(&error)) throw Otf2Error(error);
  summary_.records = writer_->records();
  return summary_;
}

}  // namespace

ConversionSummary convert_otf2(const std::string& anchor, const std::string& directory,
                               const ConversionOptions& options) {
  try {
    return Converter(anchor, options).run(directory);
  } catch (const ConfigError& e) {
    throw Otf2Error(e.what());
  }
}

}  // namespace simmpi::replay
