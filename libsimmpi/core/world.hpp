// SPDX-License-Identifier: Apache-2.0
// The state of one simulated MPI job: every rank's matching queues and flags, the communicator
// and request tables, the protocol parameters, and the machine the job runs on.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hardware/platform.hpp"
#include "libsimmpi/core/bsend_buffer.hpp"
#include "libsimmpi/core/communicator.hpp"
#include "libsimmpi/core/intrusive_list.hpp"
#include "libsimmpi/core/request.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::mpi {

struct ProtocolParams {
  SimTime send_overhead;
  SimTime recv_overhead;
  SimTime poll_cost;
  bool poll_fast_forward;                // see poll_for_message (p2p/probe_api.cpp)
  std::int64_t poll_fast_forward_after;  // identical fruitless probes taken for a polling loop
  std::uint64_t eager_threshold;
  std::int64_t epoch_s;  // what the wall-clock functions return at simulated time zero

  explicit ProtocolParams(const runtime::Config& config);
};

struct RankState {
  IntrusiveList<Request> posted;      // receives waiting for a message, in posting order
  IntrusiveList<Message> unexpected;  // messages waiting for a receive, in sending order
  bool initialized = false;
  bool finalized = false;
  int sessions = 0;  // open MPI_Sessions: MPI may be called with these alone (MPI-4.1 11.3)
  // Blocked in MPI_Probe (or simmpi_poll_rounds): a new unexpected message wakes it when its
  // envelope arrives (or at once, for simmpi_poll_rounds to stop before the probe that sees it).
  // One entry per probing process: the rank's own fiber or one of its threads.
  enum class Probing { WakeAtArrival, WakeAtSend };
  struct Prober {
    int process;
    Probing how;
  };
  std::vector<Prober> probing;
  // Blocks the running process in a probe until woken (see Probing) or until `deadline`.
  void block_probing(runtime::Scheduler& s, Probing how, const runtime::WaitReason& why,
                     SimTime deadline);
  // The last MPI_Iprobe that found nothing: what it looked for, when it returned, and how many
  // such calls for the same thing followed one another with no time spent in between (see
  // MPI_Iprobe: a long run of them is a busy-polling loop).
  struct IdleProbe {
    int context = -1, source = 0, tag = 0;
    SimTime end = SimTime::max();
    std::int64_t repeats = 0;
  } idle_probe;
  int thread_level = MPI_THREAD_SINGLE;
  int main_process = -1;     // the process that initialized MPI: MPI_Is_thread_main's main thread
  std::vector<int> threads;  // the rank's running program threads (process ids), oldest first
  // Buffered-send buffers (p2p/bsend_buffer.hpp): the process's, each communicator's and each
  // session's the rank attached, and the session each communicator made from a session's group
  // belongs to.
  BsendBufferRef bsend;
  std::map<MPI_Comm, BsendBufferRef> comm_bsend;
  std::map<MPI_Session, BsendBufferRef> session_bsend;
  std::map<MPI_Comm, MPI_Session> session_of_comm;
  std::unique_ptr<Communicator> self;  // MPI_COMM_SELF, created on first use
  // Names the rank gave predefined datatypes (MPI_Type_set_name): each process's own.
  std::map<MPI_Datatype, std::string> predefined_type_names;
  // A rank MPI_Comm_spawn started: its MPI_COMM_WORLD (the children of that call), the
  // intercommunicator to its parents once MPI_Init connected it (MPI_Comm_get_parent), and its
  // MPI_APPNUM. Null, MPI_COMM_NULL and 0 for the ranks the run started with.
  Communicator* spawned_world = nullptr;
  MPI_Comm parent = MPI_COMM_NULL;
  int appnum = 0;
  // The first child's line to the spawning root, over which MPI_Init connects the two groups.
  Communicator* parent_bridge = nullptr;
  // While the run is recorded: (request, newcomm) of each MPI_Comm_idup whose communicator was
  // made since the rank's last recorded call (CallRecord writes them after that call's record).
  std::vector<std::int64_t> idups_made;
};

class World {
 public:
  // `size` ranks start with the run (the first MPI_COMM_WORLD); `slots` (at least as many) is
  // how many ranks there may ever be, MPI_Comm_spawn's children included.
  World(runtime::Scheduler& scheduler, hardware::Platform& platform, const runtime::Config& config,
        int size, int slots = 0);
  ~World();
  // The job being simulated; SIMMPI_ASSERTs that one exists.
  static World& get() {
    SIMMPI_ASSERT(instance_, "an MPI call ran outside a simulation");
    return *instance_;
  }
  static bool exists() { return instance_ != nullptr; }

  // The size of the first MPI_COMM_WORLD (the ranks the run started with).
  int size() const { return size_; }
  // How many ranks there may ever be (world ranks [0, slots())); spawned ones come after size().
  int slots() const { return static_cast<int>(ranks_.size()); }
  RankState& rank(int world_rank) { return ranks_[static_cast<std::size_t>(world_rank)]; }
  // World rank of the rank running now, or that the running auxiliary process works for (only
  // valid inside a process).
  int current_rank() { return scheduler_.current()->owner(); }
  runtime::Scheduler& scheduler() { return scheduler_; }
  runtime::Engine& engine() { return scheduler_.engine(); }
  SimTime now() const { return scheduler_.engine().now(); }
  hardware::Platform& platform() { return platform_; }
  // A lower bound of the time from a send's matching to its envelope's arrival (the smallest
  // latency): a message not matched yet reaches no one before now() plus this. (Not plus the
  // send overhead: a rank may be sleeping through it, its envelope leaving when it wakes.)
  SimTime min_message_delay() const { return min_message_delay_; }
  const ProtocolParams& params() const { return params_; }
  // The run's configuration (it outlives the World).
  const runtime::Config& config() const { return config_; }
  RequestPool& requests() { return requests_; }
  MessagePool& messages() { return messages_; }
  // A new message's number, 1 up, in the order sends are called (observers pair sends and
  // receives by it).
  std::uint64_t next_message_id() { return ++messages_sent_; }

  // The communicator `h` names for `world_rank` (for an intercommunicator, the view of the
  // rank's group), or nullptr if `h` is not a communicator that rank belongs to and has not
  // freed.
  // (Inline when `h` is registered and the rank a member of its first view: every call asks.)
  Communicator* find_comm(MPI_Comm h, int world_rank) {
    const auto u = static_cast<unsigned>(h);
    const std::size_t index = u & 0xFFFFFFu;
    if ((u >> 24) == SIMMPI_KIND_COMM && index < comms_.size()) {
      if (Communicator* c = comms_[index].get()) {
        const int r = c->comm_rank(world_rank);
        if (r >= 0 && !c->has_freed(r)) return c;
      }
    }
    return find_comm_otherwise(h, world_rank);
  }
  Communicator& world_comm() { return *comms_[1]; }
  // The MPI_COMM_WORLD of `world_rank`: its spawned job's, else the first.
  Communicator& world_comm_of(int world_rank) {
    Communicator* w = rank(world_rank).spawned_world;
    return w ? *w : world_comm();
  }
  // Whether `h` names a communicator that `world_rank` belonged to and freed.
  bool has_freed_comm(MPI_Comm h, int world_rank);
  // Registers a new communicator (both views of an intercommunicator) under a fresh handle,
  // which it returns; handles of destroyed communicators are reused, lowest first.
  MPI_Comm add_comm(std::unique_ptr<Communicator> c);
  // Destroys the registered communicator `c` belongs to once no member and no request uses
  // either of its views; does nothing otherwise (or for an unregistered one).
  void release_comm(Communicator& c);

  // Keeps `c` alive for the rest of the run without a handle: a spawned job's MPI_COMM_WORLD,
  // the bridge over which the leaders of MPI_Comm_spawn or MPI_Comm_accept/connect talk.
  Communicator& keep_comm(std::unique_ptr<Communicator> c) {
    return *kept_comms_.emplace_back(std::move(c));
  }
  // A fresh context for such a bridge, above every context id a communicator can agree on
  // (context_id.hpp), so its messages match nothing else.
  int next_bridge_context() { return kFirstBridgeContext + 2 * bridges_++; }

  // Lets simulated time pass for the calling rank (CPU work of `d`).
  void spend(SimTime d) { scheduler_.sleep_until(now() + d); }
  // Charges one polling call (MPI_Test*, MPI_Iprobe). `can_progress` says whether what it polls
  // for is done or has a known future time. Ranks that keep polling for things that cannot
  // happen while nothing else is pending (every other rank blocked or polling likewise) would
  // poll forever: after a million such polls in a row the run ends with the deadlock report.
  void charge_poll(bool can_progress);

 private:
  // find_comm() for MPI_COMM_SELF, the other view of an intercommunicator, a freed or an invalid
  // handle.
  Communicator* find_comm_otherwise(MPI_Comm h, int world_rank);

  static World* instance_;
  runtime::Scheduler& scheduler_;
  hardware::Platform& platform_;
  SimTime min_message_delay_;
  const runtime::Config& config_;
  ProtocolParams params_;
  int size_;
  std::vector<RankState> ranks_;  // every slot, never resized: references to them stay valid
  std::vector<std::unique_ptr<Communicator>> comms_;  // by handle index; 0 is MPI_COMM_NULL
  std::vector<std::size_t> free_comm_slots_;          // a min-heap of reusable indices
  std::vector<std::unique_ptr<Communicator>> kept_comms_;
  static constexpr int kFirstBridgeContext = 1 << 24;
  int bridges_ = 0;
  RequestPool requests_;
  MessagePool messages_;
  std::uint64_t messages_sent_ = 0;
  std::uint64_t idle_polls_ = 0;
};

}  // namespace simmpi::mpi
