// SPDX-License-Identifier: Apache-2.0
// One rank of simmpi-replay: reads its call trace and makes the recorded calls, so every MPI
// model of the library times them on the replay's platform. Compute records are charged through
// the node's model (SIMMPI_COMPUTE_KERNEL: retimed), sleeps as they were recorded. Data moves
// through folded buffers: nothing is copied, nothing allocated per message.
//
// Handles of the recording run (communicators, requests) map to the replay's own as records
// make them. Where the recorded program's pattern may depend on timing the replay follows the
// recording: a blocking receive or probe from MPI_ANY_SOURCE or MPI_ANY_TAG takes the source and
// tag it matched; a test, wait-any or probe whose outcome differs completes what the recording
// completed. It counts both, for the summary (ReplayNotes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi.h"
#include "tools/replay/trace_reader.hpp"

namespace simmpi::replay {

// The largest predefined type (MPI_C_LONG_DOUBLE_COMPLEX): buffers are sized by it, folded
// memory costing nothing however large its addresses.
inline constexpr std::int64_t kLargestElement = 32;

struct Nonblocking;  // collective_call.hpp

// What one rank saw that makes a replay on another platform an approximation.
struct ReplayNotes {
  std::int64_t wildcards = 0;  // receives and probes from MPI_ANY_SOURCE or with MPI_ANY_TAG
  std::int64_t polls = 0;      // tests, probes without wait, wait-any/some, poll rounds
  std::int64_t cancels = 0;    // MPI_Cancel calls: whether one withdraws its receive is timing
  std::int64_t differed = 0;   // of those, outcomes that differed from the recording's
};

class Replayer {
 public:
  Replayer(const std::string& directory, int rank, int ranks);
  ~Replayer();
  // Makes every recorded call. Throws TraceError on a defect of the trace.
  void run();
  const ReplayNotes& notes() const { return notes_; }

 private:
  void dispatch(const Record& r);
  void point_to_point(const Record& r);
  void bsend_buffer(const Record& r);
  void persistent(const Record& r);
  void partitioned(const Record& r);
  void generalized(const Record& r);
  void probe(const Record& r);
  void probe_loop(const Record& r);
  void matched(const Record& r);
  // A message an MPI_Improbe matched here but not in the recording, for (c, source, tag).
  bool take_early(MPI_Comm c, int source, int tag, MPI_Message* out);
  void completion(const Record& r);
  void some_or_any(const Record& r);
  void collective(const Record& r);
  void rooted(const Record& r);
  void vector_collective(const Record& r);
  void alltoallw(const Record& r);
  void communicator(const Record& r);
  void topology(const Record& r);
  void window_lifetime(const Record& r);
  void rma_operation(const Record& r);
  void rma_sync(const Record& r);
  void access_group(const Record& r);
  MPI_Win window(std::int64_t recorded);
  void neighbor_uniform(const Record& r);
  void neighbor_vector(const Record& r);
  void neighbor_alltoallw(const Record& r);
  // Maps a recorded constructor's new communicator to ours (`made_comm`, maybe MPI_COMM_NULL).
  void made_comm(std::int64_t recorded, MPI_Comm ours);
  void idup(const Record& r);
  void session(const Record& r);
  void from_groups(const Record& r);
  MPI_Group world_group(const std::vector<int>& members);
  void untraced(const Record& r);
  void compute(const Record& r);

  MPI_Comm comm(std::int64_t recorded);
  // Its size, known since it was made (the replay makes no call to learn it); an
  // intercommunicator's is the larger of its groups' (it sizes buffers of blocks per member).
  std::int64_t comm_size(MPI_Comm c);
  MPI_Request& request(std::int64_t recorded);
  void made(std::int64_t recorded, MPI_Request ours);
  // A collective's request, when it made one.
  void made(const Nonblocking& nb);
  void update(std::int64_t recorded, MPI_Request ours);
  std::vector<MPI_Request> requests(const std::vector<int>& recorded);
  void put_back(const std::vector<int>& recorded, const std::vector<MPI_Request>& ours);
  // A datatype for `count` elements of the recorded type: predefined ones as they are; a
  // derived one as bytes (`count` is scaled). Reductions need a predefined type.
  MPI_Datatype type(std::int64_t recorded, int* count, bool reduction = false);
  MPI_Op op(std::int64_t recorded);
  void* send_buffer(std::int64_t elements);
  // A recorded send's fields (mode, count, type, destination, tag, communicator), read in that
  // order, with a buffer for its elements: a send, an Isend and a send-init record alike.
  struct SendArgs {
    int mode;  // 0 standard, 1 synchronous, 2 ready, 3 buffered
    void* buf;
    int count;
    MPI_Datatype type;
    int dest, tag;
    MPI_Comm comm;
  };
  SendArgs send_args(Fields& f);
  void* recv_buffer(std::int64_t elements);
  // One side of an all-to-all-w: a count and a type per peer (two arrays), the blocks laid out
  // one after the other at the largest element's size apart (`displs`, bytes).
  struct TypedBlocks {
    std::vector<int> counts, displs;
    std::vector<MPI_Datatype> types;
    std::int64_t elements = 0;
  };
  TypedBlocks typed_blocks(Fields& f);
  void outcome(std::int64_t recorded, std::int64_t replayed);

  TraceReader in_;
  std::unordered_map<std::int64_t, MPI_Comm> comms_;
  // MPI_Comm_idup's: where ours will be, by the recorded request until its CommIdupMade record,
  // then by the recorded communicator until its first use moves it to comms_.
  std::unordered_map<std::int64_t, std::unique_ptr<MPI_Comm>> idup_slots_, idup_comms_;
  std::unordered_map<std::int64_t, MPI_Session> sessions_;
  std::unordered_map<MPI_Comm, int> sizes_;
  std::unordered_map<std::int64_t, MPI_Request> requests_;
  std::unordered_map<std::int64_t, MPI_Request> grequests_;  // generalized, not yet completed
  std::unordered_map<std::int64_t, MPI_Message> messages_;   // matched, not yet received
  struct Window {
    MPI_Win win = MPI_WIN_NULL;
    void* memory = nullptr;  // a created window's (folded), freed with it
  };
  std::unordered_map<std::int64_t, Window> windows_;
  struct Early {
    MPI_Comm comm;
    int source, tag;
    MPI_Message message;
  };
  std::vector<Early> early_;
  std::unordered_map<std::int64_t, std::string> kernels_;
  MPI_Op user_ops_[2] = {MPI_OP_NULL, MPI_OP_NULL};  // commutative, noncommutative
  struct Buffer {
    void* p = nullptr;
    std::size_t bytes = 0;
  };
  void* folded(Buffer& b, std::int64_t elements);
  Buffer send_, recv_;
  void* bsend_ = nullptr;        // the attached buffer of buffered sends
  std::vector<void*> outgrown_;  // buffers folded() replaced: persistent requests may hold them
  ReplayNotes notes_;
};

}  // namespace simmpi::replay
