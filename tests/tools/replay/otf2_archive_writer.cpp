// SPDX-License-Identifier: Apache-2.0
// Writes a small OTF2 archive with the OTF2 library's own writer, as Score-P would record two
// MPI ranks (timer in nanoseconds):
//   rank 0: MPI_Init [0, 1 us]; computes 2 ms; MPI_Send 8 bytes to 1 (tag 5); computes 1 ms;
//           MPI_Irecv (request 7); 1 us; MPI_Wait completes it (8 bytes from 1, tag 6);
//           MPI_Finalize
//   rank 1: MPI_Init; MPI_Recv from 0 (tag 5); computes 4 ms; MPI_Isend 8 bytes to 0 (tag 6,
//           request 3); MPI_Wait completes it; MPI_Finalize
// With "rma", rank 1 also records an RmaPut event (which simmpi does not replay) before
// MPI_Finalize. otf2_replay_test.sh replays it and checks the time by hand.
// With "nonblocking", the ranks make nonblocking collectives instead (OTF2 3.0's
// NonBlockingCollectiveRequest and _Complete events), as otf2_nonblocking_twin.c does:
//   rank 0: MPI_Init; computes 2 ms; MPI_Ibcast of 8 bytes from 0 (request 11); computes 1 ms;
//           MPI_Wait completes it; MPI_Iallreduce of 8 bytes (request 12); computes 2 ms;
//           MPI_Wait completes it; MPI_Finalize
//   rank 1: MPI_Init; computes 4 ms; MPI_Ibcast (request 21); MPI_Wait; MPI_Iallreduce (request
//           22); computes 2 ms; MPI_Wait; MPI_Finalize
//   otf2_archive_writer DIR [rma|nonblocking]
#include <otf2/otf2.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}
OTF2_FlushCallbacks flush_callbacks = {&pre_flush, &post_flush};

enum Region : OTF2_RegionRef {
  Init,
  Send,
  Irecv,
  Wait,
  Recv,
  Isend,
  Finalize,
  Ibcast,
  Iallreduce,
  Regions
};
const char* const kRegionNames[] = {"MPI_Init",     "MPI_Send",   "MPI_Irecv",
                                    "MPI_Wait",     "MPI_Recv",   "MPI_Isend",
                                    "MPI_Finalize", "MPI_Ibcast", "MPI_Iallreduce"};
constexpr OTF2_CommRef kWorld = 0;

void call(OTF2_EvtWriter* w, Region r, OTF2_TimeStamp enter, OTF2_TimeStamp leave) {
  OTF2_EvtWriter_Enter(w, nullptr, enter, r);
  OTF2_EvtWriter_Leave(w, nullptr, leave, r);
}

void rank0(OTF2_EvtWriter* w) {
  call(w, Init, 0, 1000);
  OTF2_EvtWriter_Enter(w, nullptr, 2001000, Send);
  OTF2_EvtWriter_MpiSend(w, nullptr, 2001000, 1, kWorld, 5, 8);
  OTF2_EvtWriter_Leave(w, nullptr, 2002000, Send);
  OTF2_EvtWriter_Enter(w, nullptr, 3002000, Irecv);
  OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, 3002000, 7);
  OTF2_EvtWriter_Leave(w, nullptr, 3003000, Irecv);
  OTF2_EvtWriter_Enter(w, nullptr, 3004000, Wait);
  OTF2_EvtWriter_MpiIrecv(w, nullptr, 8999000, 1, kWorld, 6, 8, 7);
  OTF2_EvtWriter_Leave(w, nullptr, 9000000, Wait);
  call(w, Finalize, 9000000, 9001000);
}

void rank1(OTF2_EvtWriter* w, bool rma) {
  call(w, Init, 0, 1000);
  OTF2_EvtWriter_Enter(w, nullptr, 1000, Recv);
  OTF2_EvtWriter_MpiRecv(w, nullptr, 2499000, 0, kWorld, 5, 8);
  OTF2_EvtWriter_Leave(w, nullptr, 2500000, Recv);
  OTF2_EvtWriter_Enter(w, nullptr, 6500000, Isend);
  OTF2_EvtWriter_MpiIsend(w, nullptr, 6500000, 0, kWorld, 6, 8, 3);
  OTF2_EvtWriter_Leave(w, nullptr, 6501000, Isend);
  OTF2_EvtWriter_Enter(w, nullptr, 6501000, Wait);
  OTF2_EvtWriter_MpiIsendComplete(w, nullptr, 6501500, 3);
  OTF2_EvtWriter_Leave(w, nullptr, 6502000, Wait);
  if (rma) OTF2_EvtWriter_RmaPut(w, nullptr, 6502000, 0, 0, 64, 1);
  call(w, Finalize, 6502000, 6503000);
}

// A nonblocking collective on MPI_COMM_WORLD: started in `region` [start, start + 1 us] as
// `request`, completed in MPI_Wait [done, done + 1 us].
void nonblocking(OTF2_EvtWriter* w, Region region, OTF2_CollectiveOp op, std::uint64_t request,
                 OTF2_TimeStamp start, OTF2_TimeStamp done, std::uint64_t sent,
                 std::uint64_t received) {
  OTF2_EvtWriter_Enter(w, nullptr, start, region);
  OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, start, request);
  OTF2_EvtWriter_Leave(w, nullptr, start + 1000, region);
  OTF2_EvtWriter_Enter(w, nullptr, done, Wait);
  OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, done + 500, op, kWorld, 0, sent,
                                               received, request);
  OTF2_EvtWriter_Leave(w, nullptr, done + 1000, Wait);
}

void rank0_nonblocking(OTF2_EvtWriter* w) {
  call(w, Init, 0, 1000);
  nonblocking(w, Ibcast, OTF2_COLLECTIVE_OP_BCAST, 11, 2001000, 3002000, 8, 8);
  nonblocking(w, Iallreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, 12, 3003000, 5004000, 8, 8);
  call(w, Finalize, 5005000, 5006000);
}

void rank1_nonblocking(OTF2_EvtWriter* w) {
  call(w, Init, 0, 1000);
  nonblocking(w, Ibcast, OTF2_COLLECTIVE_OP_BCAST, 21, 4001000, 4002000, 0, 8);
  nonblocking(w, Iallreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, 22, 4003000, 6004000, 8, 8);
  call(w, Finalize, 6005000, 6006000);
}

void definitions(OTF2_Archive* a) {
  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(a);
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 9001000, OTF2_UNDEFINED_TIMESTAMP);
  std::vector<std::string> strings = {"", "node", "rank 0", "rank 1", "MPI_COMM_WORLD"};
  for (const char* n : kRegionNames) strings.push_back(n);
  for (std::size_t i = 0; i < strings.size(); ++i)
    OTF2_GlobalDefWriter_WriteString(g, static_cast<OTF2_StringRef>(i), strings[i].c_str());
  for (OTF2_RegionRef r = 0; r < Regions; ++r)
    OTF2_GlobalDefWriter_WriteRegion(g, r, 5 + r, 5 + r, 0, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (std::uint32_t r = 0; r < 2; ++r) {
    OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 2 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, r, 2 + r, OTF2_LOCATION_TYPE_CPU_THREAD, 12, r);
  }
  const std::uint64_t members[] = {0, 1};
  OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, members);
  OTF2_GlobalDefWriter_WriteGroup(g, 1, 4, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, members);
  OTF2_GlobalDefWriter_WriteComm(g, kWorld, 4, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: otf2_archive_writer DIR [rma|nonblocking]\n");
    return 2;
  }
  const bool rma = argc > 2 && std::strcmp(argv[2], "rma") == 0;
  const bool nbc = argc > 2 && std::strcmp(argv[2], "nonblocking") == 0;
  OTF2_Archive* a = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                                      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
                                      OTF2_COMPRESSION_NONE);
  if (!a) return 1;
  OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(a);
  OTF2_Archive_SetCreator(a, "otf2_archive_writer");
  OTF2_Archive_OpenEvtFiles(a);
  OTF2_EvtWriter* w0 = OTF2_Archive_GetEvtWriter(a, 0);
  OTF2_EvtWriter* w1 = OTF2_Archive_GetEvtWriter(a, 1);
  if (nbc) {
    rank0_nonblocking(w0);
    rank1_nonblocking(w1);
  } else {
    rank0(w0);
    rank1(w1, rma);
  }
  OTF2_Archive_CloseEvtWriter(a, w0);
  OTF2_Archive_CloseEvtWriter(a, w1);
  OTF2_Archive_CloseEvtFiles(a);
  OTF2_Archive_OpenDefFiles(a);
  for (OTF2_LocationRef l = 0; l < 2; ++l)
    OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a, l));
  OTF2_Archive_CloseDefFiles(a);
  definitions(a);
  return OTF2_Archive_Close(a) == OTF2_SUCCESS ? 0 : 1;
}
