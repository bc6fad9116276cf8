// SPDX-License-Identifier: Apache-2.0
// MPI_Comm_spawn, MPI_Comm_spawn_multiple and MPI_Comm_get_parent (MPI-3.1 10.3). The children
// are new ranks of this job (fibers, with their own MPI_COMM_WORLD and their own globals),
// started at main in the slots reserved at start on the platform's free nodes
// (mpi.spawn_slots), mpi.spawn_launch_time after the root's call. The two groups then connect
// as MPI_Intercomm_create's do (join_groups): each agrees on a context, the root and the first
// child swap theirs over a bridge of their own, and each broadcasts the outcome to its group,
// all in simulated messages. Only the job's own program can be spawned: a simmpi job is one
// executable.
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/intercomm.hpp"
#include "libsimmpi/comm/spawn.hpp"
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/info/info_objects.hpp"
#include "libsimmpi/launch/rank_life.hpp"

namespace simmpi::mpi {
namespace {

// The bridge's tag, on its collective channel (the bridge carries nothing else).
constexpr int kTagSpawn = 1;

// One command of a spawn as the root passed it.
struct Command {
  std::string name;
  std::vector<std::string> args;  // without argv[0]
  int maxprocs;
  MPI_Info info;
};

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whether `command` names this job's executable: the same file once resolved as mpiexec would
// (relative to the info's "wdir", or in one of its "path" directories), or the same file name
// (a name mpiexec would look up in PATH).
bool is_own_program(const std::string& command, const Info* info) {
  const std::string exe = real_path("/proc/self/exe");
  if (base_name(command) == base_name(exe)) return true;
  std::vector<std::string> candidates{command};
  if (info) {
    if (const auto* wdir = info->find("wdir"); wdir && command[0] != '/')
      candidates.push_back(wdir->second + "/" + command);
    if (const auto* path = info->find("path"))
      for (std::size_t b = 0, e; b <= path->second.size(); b = e + 1) {
        e = path->second.find(':', b);
        if (e == std::string::npos) e = path->second.size();
        candidates.push_back(path->second.substr(b, e - b) + "/" + base_name(command));
      }
  }
  for (const std::string& c : candidates)
    if (!exe.empty() && real_path(c) == exe) return true;
  return false;
}

// Why the root cannot start `wanted` children now, naming the key to raise; "" when it can.
std::string lack_of_slots(World& w, int wanted) {
  const int first = w.size(), started = w.scheduler().process_count() - first;
  const int reserved = w.slots() - first, left = reserved - started;
  if (wanted <= left) return "";
  const hardware::Platform& p = w.platform();
  const std::string have = strprintf(
      "%d children need %d free rank slots and %d %s left (%d reserved, %d used by "
      "earlier spawns)",
      wanted, wanted, left, left == 1 ? "is" : "are", reserved, started);
  const std::string platform = strprintf(
      "the platform's %d nodes at node.ranks_per_node = %lld leave %d slots on the "
      "nodes no rank uses",
      p.node_count(), static_cast<long long>(w.config().integer("node.ranks_per_node")),
      p.free_slots());
  if (reserved < p.free_slots())
    return have + "; mpi.spawn_slots = " + w.config().value_text("mpi.spawn_slots") +
           " reserved fewer than the " + std::to_string(p.free_slots()) +
           " free slots: raise mpi.spawn_slots";
  return have + "; " + platform + ": raise node.count (or node.ranks_per_node)";
}

// The root's checks of what it alone passes; "" when the spawn can go ahead, else the reason
// and the error class in *cls.
std::string check_commands(ApiCall& call, const std::vector<Command>& commands, int* cls) {
  int total = 0;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const Command& c = commands[i];
    *cls = MPI_ERR_ARG;
    if (c.maxprocs <= 0)
      return strprintf("maxprocs=%d for command %zu (\"%s\") is not positive", c.maxprocs, i,
                       c.name.c_str());
    const Info* info =
        c.info == MPI_INFO_NULL ? nullptr : InfoObjects::get().find(call.rank, c.info);
    *cls = MPI_ERR_INFO;
    if (c.info != MPI_INFO_NULL && !info)
      return strprintf("info 0x%x of command %zu is not an info object", c.info, i);
    *cls = MPI_ERR_SPAWN;
    if (!is_own_program(c.name, info))
      return strprintf(
          "command \"%s\" is not this job's program (%s): under simmpi every rank "
          "runs the one executable, so only it can be spawned",
          c.name.c_str(), real_path("/proc/self/exe").c_str());
    total += c.maxprocs;
  }
  *cls = MPI_ERR_SPAWN;
  return lack_of_slots(call.world, total);
}

// What the root broadcasts to the parents: the outcome, and on failure why (for their message).
struct Outcome {
  int error = MPI_SUCCESS;
  char why[512] = "";
};

// Starts the children of `commands` (checked), mpi.spawn_launch_time from now, as one job:
// their MPI_COMM_WORLD in command order, MPI_APPNUM the command's index. Returns the bridge
// between the root (its rank 0) and the first child (its rank 1).
Communicator* start_children(ApiCall& call, const std::vector<Command>& commands) {
  World& w = call.world;
  const SimTime start = w.now() + w.config().time("mpi.spawn_launch_time");
  std::vector<int> children;
  std::vector<int> appnums;
  for (std::size_t i = 0; i < commands.size(); ++i)
    for (int k = 0; k < commands[i].maxprocs; ++k) {
      std::vector<std::string> argv{commands[i].name};
      argv.insert(argv.end(), commands[i].args.begin(), commands[i].args.end());
      const int rank = RankLives::instance()->start_rank(start, std::move(argv));
      SIMMPI_ASSERT(rank >= 0, "a checked spawn finds its slots free");
      children.push_back(rank);
      appnums.push_back(static_cast<int>(i));
    }
  Communicator& world = w.keep_comm(std::make_unique<Communicator>(
      MPI_COMM_WORLD, 0, std::vector<int>(children), "MPI_COMM_WORLD"));
  Communicator& bridge = w.keep_comm(std::make_unique<Communicator>(
      MPI_COMM_NULL, w.next_bridge_context(), std::vector<int>{call.rank, children[0]},
      strprintf("the bridge of rank %d's spawn", call.rank)));
  for (std::size_t i = 0; i < children.size(); ++i) {
    RankState& st = w.rank(children[i]);
    st.spawned_world = &world;
    st.appnum = appnums[i];
  }
  w.rank(children[0]).parent_bridge = &bridge;
  return &bridge;
}

// MPI_Comm_spawn(_multiple) over the parents' communicator `comm`, the root's `commands`.
int spawn(ApiCall& call, MPI_Comm comm, int root, const std::vector<Command>& commands,
          MPI_Comm* intercomm, int* errcodes) {
  // The collectives' own checks; the agreement is checked below without noting the root as
  // the call's peer.
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.intra_only().root(root);
  if (!k.ok()) return k.error();
  if (!intercomm) return call.fail(comm, MPI_ERR_ARG, "intercomm is NULL");
  Communicator* c = &k.comm();
  const int me = k.rank();
  std::string why;
  int err = c->check_collective(me, CollectiveSignature{call.name, root, MPI_OP_NULL, -1}, &why);
  if (err != MPI_SUCCESS) return call.fail(comm, err, "%s", why.c_str());
  Outcome outcome;
  Communicator* bridge = nullptr;
  int children = 0;
  for (const Command& k : commands) children += k.maxprocs;
  if (me == root) {
    why = check_commands(call, commands, &outcome.error);
    if (why.empty()) {
      outcome.error = MPI_SUCCESS;
      bridge = start_children(call, commands);
    }
    std::snprintf(outcome.why, sizeof outcome.why, "%s", why.c_str());
  }
  CollContext lc(call.world, *c);
  run_bcast(lc, &outcome, static_cast<int>(sizeof outcome), 1, root);
  if (outcome.error != MPI_SUCCESS) {
    *intercomm = MPI_COMM_NULL;
    if (me == root && errcodes)
      for (int i = 0; i < children; ++i) errcodes[i] = outcome.error;
    if (me == root) return call.fail(comm, outcome.error, "%s", outcome.why);
    return call.fail(comm, outcome.error, "the root (rank %d) could not spawn: %s", root,
                     outcome.why);
  }
  err = join_groups(call, *c, root, bridge, 1, kTagSpawn, intercomm);
  if (err != MPI_SUCCESS) return fail_no_context(call, comm);
  if (me == root && errcodes)
    for (int i = 0; i < children; ++i) errcodes[i] = MPI_SUCCESS;
  return MPI_SUCCESS;
}

std::vector<std::string> args_of(char** argv) {
  std::vector<std::string> args;
  for (; argv && *argv; ++argv) args.emplace_back(*argv);
  return args;
}

}  // namespace

void connect_to_parents(ApiCall& call) {
  RankState& st = call.world.rank(call.rank);
  if (!st.spawned_world) return;
  int err = join_groups(call, *st.spawned_world, 0, st.parent_bridge, 0, kTagSpawn, &st.parent);
  SIMMPI_ASSERT(err == MPI_SUCCESS, "a new job has context ids free (rank %d)", call.rank);
  // MPI-3.1 10.3.2: the children's view is named MPI_COMM_PARENT.
  Communicator& view = *call.world.find_comm(st.parent, call.rank);
  view.set_user_name(view.comm_rank(call.rank), "MPI_COMM_PARENT");
}

}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm* intercomm, int array_of_errcodes[]) {
  ApiCall call("MPI_Comm_spawn");
  std::vector<Command> commands;
  Communicator* c = call.comm(comm);
  if (c && !c->is_inter() && c->comm_rank(call.rank) == root) {
    if (!command) return call.fail(comm, MPI_ERR_ARG, "command is NULL");
    commands.push_back(Command{command, args_of(argv), maxprocs, info});
  }
  return spawn(call, comm, root, commands, intercomm, array_of_errcodes);
}

int MPI_Comm_spawn_multiple(int count, char* array_of_commands[], char** array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[], int root,
                            MPI_Comm comm, MPI_Comm* intercomm, int array_of_errcodes[]) {
  ApiCall call("MPI_Comm_spawn_multiple");
  std::vector<Command> commands;
  Communicator* c = call.comm(comm);
  if (c && !c->is_inter() && c->comm_rank(call.rank) == root) {
    if (count <= 0) return call.fail(comm, MPI_ERR_ARG, "count=%d is not positive", count);
    if (!array_of_commands || !array_of_maxprocs || !array_of_info)
      return call.fail(comm, MPI_ERR_ARG, "array_of_commands, _maxprocs or _info is NULL");
    for (int i = 0; i < count; ++i) {
      if (!array_of_commands[i])
        return call.fail(comm, MPI_ERR_ARG, "array_of_commands[%d] is NULL", i);
      commands.push_back(Command{array_of_commands[i],
                                 args_of(array_of_argv ? array_of_argv[i] : nullptr),
                                 array_of_maxprocs[i], array_of_info[i]});
    }
  }
  return spawn(call, comm, root, commands, intercomm, array_of_errcodes);
}

// MPI-3.1 10.3.2: the intercommunicator to the parents for a spawned rank, until it frees or
// disconnects it; MPI_COMM_NULL for the ranks the run started with.
int MPI_Comm_get_parent(MPI_Comm* parent) {
  ApiCall call("MPI_Comm_get_parent");
  if (!parent) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "parent is NULL");
  const MPI_Comm p = call.world.rank(call.rank).parent;
  *parent = p != MPI_COMM_NULL && call.world.find_comm(p, call.rank) ? p : MPI_COMM_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
