// SPDX-License-Identifier: Apache-2.0
// Copy and delete of cached attributes through their keyvals' callbacks.
#include "libsimmpi/comm/attributes.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "libsimmpi/comm/comm_objects.hpp"

namespace simmpi::mpi {
namespace {

using AttrKey = std::pair<const Communicator*, int>;

// The keyvals the caller has attributes for on `comm`, in the order they were set. Callbacks may
// set or delete attributes, so callers walk this snapshot, not the map.
std::vector<int> keyvals_on(const RankObjects& objects, const Communicator& comm) {
  std::vector<std::pair<std::uint64_t, int>> set;  // (set order, keyval)
  for (auto it = objects.attributes.lower_bound(AttrKey{&comm, 0});
       it != objects.attributes.end() && it->first.first == &comm; ++it)
    set.emplace_back(it->second.set_order, it->first.second);
  std::sort(set.begin(), set.end());
  std::vector<int> out;
  for (const auto& [order, keyval] : set) out.push_back(keyval);
  return out;
}

}  // namespace

int delete_attribute(RankObjects& objects, MPI_Comm handle, const Communicator& comm, int keyval) {
  auto it = objects.attributes.find(AttrKey{&comm, keyval});
  if (it == objects.attributes.end()) return MPI_SUCCESS;
  Keyval* kv = objects.keyvals.find(keyval);
  if (kv->del) {
    int err = kv->del(handle, keyval, it->second.value, kv->extra_state);
    if (err != MPI_SUCCESS) return err;
  }
  objects.attributes.erase(AttrKey{&comm, keyval});  // the callback may have moved `it`
  kv = objects.keyvals.find(keyval);
  if (--kv->uses == 0 && kv->freed) objects.keyvals.remove(keyval);
  return MPI_SUCCESS;
}

int copy_attributes(ApiCall& call, MPI_Comm from_handle, const Communicator& from,
                    const Communicator& to) {
  RankObjects* found = CommObjects::get().find_rank(call.rank);
  if (!found) return MPI_SUCCESS;
  RankObjects& objects = *found;
  for (int keyval : keyvals_on(objects, from)) {
    auto it = objects.attributes.find(AttrKey{&from, keyval});
    Keyval* kv = objects.keyvals.find(keyval);
    if (it == objects.attributes.end() || !kv->copy) continue;  // MPI_COMM_NULL_COPY_FN
    void* out = nullptr;
    int flag = 0;
    int err = kv->copy(from_handle, keyval, kv->extra_state, it->second.value, &out, &flag);
    if (err != MPI_SUCCESS) return err;
    if (!flag) continue;
    objects.attributes[AttrKey{&to, keyval}] = {out, objects.attributes_set++};
    ++objects.keyvals.find(keyval)->uses;
  }
  return MPI_SUCCESS;
}

int delete_attributes(ApiCall& call, MPI_Comm handle, const Communicator& comm) {
  RankObjects* objects = CommObjects::get().find_rank(call.rank);
  if (!objects) return MPI_SUCCESS;  // this rank never made a keyval
  // Last set, first deleted.
  const std::vector<int> keyvals = keyvals_on(*objects, comm);
  for (auto k = keyvals.rbegin(); k != keyvals.rend(); ++k) {
    int err = delete_attribute(*objects, handle, comm, *k);
    if (err != MPI_SUCCESS) return err;
  }
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi
