// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's communicator constructors, sessions included (see replayer.hpp).
#include <algorithm>
#include <memory>

#include "tools/replay/replayer.hpp"

namespace simmpi::replay {

namespace ct = runtime::call_trace;
using ct::Kind;

void Replayer::communicator(const Record& r) {
  Fields f(r);
  const std::int64_t recorded = f.next();
  MPI_Comm c = comm(recorded), ours = MPI_COMM_NULL;
  if (r.kind == Kind::CommFree) {
    MPI_Comm_free(&c);
    comms_.erase(recorded);
    return;
  }
  if (r.kind == Kind::CommDup) {
    MPI_Comm_dup(c, &ours);
  } else if (r.kind == Kind::CommSplit) {
    const int color = f.i(), key = f.i();
    MPI_Comm_split(c, color, key, &ours);
  } else if (r.kind == Kind::IntercommCreate) {
    const int leader = f.i();
    const MPI_Comm peer = comm(f.next());
    const int remote_leader = f.i(), tag = f.i();
    MPI_Intercomm_create(c, leader, peer, remote_leader, tag, &ours);
  } else if (r.kind == Kind::IntercommMerge) {
    MPI_Intercomm_merge(c, f.i(), &ours);
  } else {  // MPI_Comm_create, MPI_Comm_create_group
    const std::vector<int> members = f.array();
    MPI_Group g, sub;
    MPI_Comm_group(c, &g);
    MPI_Group_incl(g, static_cast<int>(members.size()), members.data(), &sub);
    if (r.kind == Kind::CommCreateGroup)
      MPI_Comm_create_group(c, sub, f.i(), &ours);
    else
      MPI_Comm_create(c, sub, &ours);
    MPI_Group_free(&sub);
    MPI_Group_free(&g);
  }
  made_comm(f.next(), ours);
}

void Replayer::made_comm(std::int64_t recorded, MPI_Comm ours) {
  if ((recorded == MPI_COMM_NULL) != (ours == MPI_COMM_NULL))
    in_.fail("the communicator made differs from the recording's (one of them is MPI_COMM_NULL)");
  comms_[recorded] = ours;
  if (ours == MPI_COMM_NULL) return;
  int inter = 0, remote = 0;
  MPI_Comm_size(ours, &sizes_[ours]);
  MPI_Comm_test_inter(ours, &inter);
  if (inter) MPI_Comm_remote_size(ours, &remote);  // an intercommunicator's blocks: the larger
  sizes_[ours] = std::max(sizes_[ours], remote);
}

// MPI_Comm_idup: the communicator comes with the request's completion. The CommIdupMade record
// (written after the call during which the recording's request completed) names it; ours is in
// the slot our MPI_Comm_idup writes, by the time the program uses it (after its wait).
void Replayer::idup(const Record& r) {
  Fields f(r);
  if (r.kind == Kind::CommIdup) {
    const MPI_Comm c = comm(f.next());
    const std::int64_t recorded = f.next();
    auto slot = std::make_unique<MPI_Comm>(MPI_COMM_NULL);
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Comm_idup(c, slot.get(), &q);
    made(recorded, q);
    idup_slots_[recorded] = std::move(slot);
    return;
  }
  const std::int64_t request = f.next(), newcomm = f.next();
  auto s = idup_slots_.find(request);
  if (s == idup_slots_.end())
    in_.fail("request " + std::to_string(request) + " was not made by an MPI_Comm_idup record");
  idup_comms_[newcomm] = std::move(s->second);
  idup_slots_.erase(s);
}

// The recorded world ranks `members` as a group: of mpi://WORLD through a session the replay
// opened where the program had one (a program of sessions alone has no MPI_COMM_WORLD), else
// of MPI_COMM_WORLD. MPI_GROUP_EMPTY for none.
MPI_Group Replayer::world_group(const std::vector<int>& members) {
  if (members.empty()) return MPI_GROUP_EMPTY;
  MPI_Group world, g;
  if (!sessions_.empty())
    MPI_Group_from_session_pset(sessions_.begin()->second, "mpi://WORLD", &world);
  else
    MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, static_cast<int>(members.size()), members.data(), &g);
  MPI_Group_free(&world);
  return g;
}

void Replayer::session(const Record& r) {
  Fields f(r);
  const std::int64_t recorded = f.next();
  if (r.kind == Kind::SessionInit) {
    MPI_Session s = MPI_SESSION_NULL;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
    sessions_[recorded] = s;
    return;
  }
  auto s = sessions_.find(recorded);
  if (s == sessions_.end())
    in_.fail("session " + std::to_string(recorded) + " was not made by an earlier record");
  MPI_Session_finalize(&s->second);
  sessions_.erase(s);
}

// MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups. The record's string is the
// tag (one string per record).
void Replayer::from_groups(const Record& r) {
  Fields f(r);
  MPI_Group local = world_group(f.array());
  MPI_Comm ours = MPI_COMM_NULL;
  if (r.kind == Kind::CommCreateFromGroup) {
    MPI_Comm_create_from_group(local, r.text.c_str(), MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &ours);
  } else {
    const int local_leader = f.i();
    MPI_Group remote = world_group(f.array());
    const int remote_leader = f.i();
    MPI_Intercomm_create_from_groups(local, local_leader, remote, remote_leader, r.text.c_str(),
                                     MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &ours);
    if (remote != MPI_GROUP_EMPTY) MPI_Group_free(&remote);
  }
  if (local != MPI_GROUP_EMPTY) MPI_Group_free(&local);
  made_comm(f.next(), ours);
}

}  // namespace simmpi::replay
