// SPDX-License-Identifier: Apache-2.0
// The cross-group agreement of intercommunicator collectives (see the header).
#include "libsimmpi/coll/intercomm_agreement.hpp"

#include <cstring>
#include <map>
#include <utility>

#include "libsimmpi/core/communicator.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

enum class Side { Unknown, Root, Named };  // a group's part in a rooted collective

struct Entered {
  const char* call;
  int first_group;  // the group of the first member that entered
  Side side[2] = {Side::Unknown, Side::Unknown};
  int root_holder = -1;  // the member that passed MPI_ROOT
  int named = -1;        // the rank the other group passed
  int arrived = 0;
};

using Key = std::pair<const Communicator*, std::uint32_t>;  // the anchor view, the collective

std::map<Key, Entered>& entered() {
  static std::map<Key, Entered> table;
  return table;
}

const char* group_name(int g) {
  return g == 0 ? "the first group" : "the second group";
}

// The disagreement that member `rank` of group `g` brings with `root`, or "".
std::string rooted_mismatch(Entered& e, int g, int rank, int root) {
  const Side mine = root >= 0 ? Side::Named : Side::Root;
  if (e.side[1 - g] == mine)
    return strprintf("both groups passed %s",
                     mine == Side::Root ? "MPI_ROOT or MPI_PROC_NULL (one group must name "
                                          "the root in the other)"
                                        : "a rank of the other group as root (one group "
                                          "must pass MPI_ROOT at the root)");
  e.side[g] = mine;
  if (root == MPI_ROOT) {
    if (e.root_holder >= 0)
      return strprintf("members %d and %d of %s both passed MPI_ROOT", e.root_holder, rank,
                       group_name(g));
    e.root_holder = rank;
  }
  if (root >= 0) e.named = root;
  if (e.root_holder >= 0 && e.named >= 0 && e.root_holder != e.named)
    return strprintf("one group names root %d, but member %d of the other passed MPI_ROOT", e.named,
                     e.root_holder);
  return "";
}

}  // namespace

int check_across_groups(Communicator& view, int comm_rank, std::uint32_t seq, const char* call,
                        bool rooted, int root, std::string* why) {
  Communicator& anchor = view.anchor();
  const int g = &view == &anchor ? 0 : 1;
  const Key key{&anchor, seq};
  auto [it, fresh] = entered().try_emplace(key, Entered{call, g});
  Entered& e = it->second;
  std::string what;
  const bool same_call = std::strcmp(e.call, call) == 0;
  if (!same_call)
    what = strprintf("member %d of %s called %s while %s called %s", comm_rank, group_name(g), call,
                     group_name(e.first_group), e.call);
  else if (rooted)
    what = rooted_mismatch(e, g, comm_rank, root);
  const bool last = ++e.arrived == anchor.size() + anchor.remote().size();
  if (what.empty() && last && rooted && e.root_holder < 0)
    what = "no member of the root's group passed MPI_ROOT";
  if (last) entered().erase(it);
  if (what.empty()) return MPI_SUCCESS;
  *why = strprintf("mismatched collective #%u on intercommunicator %s: %s", seq + 1,
                   view.name().c_str(), what.c_str());
  return same_call ? MPI_ERR_ROOT : MPI_ERR_OTHER;
}

}  // namespace simmpi::mpi
