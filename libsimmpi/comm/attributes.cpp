// SPDX-License-Identifier: Apache-2.0
// Copy and delete of cached attributes through their keyvals' callbacks.
#include "libsimmpi/comm/attributes.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "libsimmpi/comm/comm_objects.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

using AttrKey = std::pair<const void*, int>;

// The keyvals the caller has attributes for on `object`, in the order they were set. Callbacks may
// set or delete attributes, so callers walk this snapshot, not the map.
std::vector<int> keyvals_on(const RankObjects& objects, const void* object) {
  std::vector<std::pair<std::uint64_t, int>> set;  // (set order, keyval)
  for (auto it = objects.attributes.lower_bound(AttrKey{object, 0});
       it != objects.attributes.end() && it->first.first == object; ++it)
    set.emplace_back(it->second.set_order, it->first.second);
  std::sort(set.begin(), set.end());
  std::vector<int> out;
  for (const auto& [order, keyval] : set) out.push_back(keyval);
  return out;
}

}  // namespace

int delete_attribute(RankObjects& objects, int handle, const void* object, int keyval) {
  auto it = objects.attributes.find(AttrKey{object, keyval});
  if (it == objects.attributes.end()) return MPI_SUCCESS;
  Keyval* kv = objects.keyvals.find(keyval);
  if (kv->del) {
    int err = kv->del(handle, keyval, it->second.value, kv->extra_state);
    if (err != MPI_SUCCESS) return err;
  }
  objects.attributes.erase(AttrKey{object, keyval});  // the callback may have moved `it`
  kv = objects.keyvals.find(keyval);
  if (--kv->uses == 0 && kv->freed) objects.keyvals.remove(keyval);
  return MPI_SUCCESS;
}

namespace {

// The caller's keyval `keyval`, or nullptr after raising MPI_ERR_KEYVAL on the holder.
// `freed_ok`: a freed keyval still names the attributes that keep it alive (MPI-3.1 6.7.2), which
// may be read and deleted.
Keyval* user_keyval(const AttributeHolder& h, RankObjects& objects, int keyval, int* err,
                    bool freed_ok) {
  Keyval* kv = objects.keyvals.find(keyval);
  if (kv && (!kv->freed || freed_ok)) return kv;
  *err = h.raise(MPI_ERR_KEYVAL,
                 h.is_predefined(keyval)
                     ? strprintf("keyval=0x%08x is a predefined attribute, which is read-only",
                                 static_cast<unsigned>(keyval))
                           .c_str()
                     : strprintf("keyval=0x%08x is not a keyval of this rank%s",
                                 static_cast<unsigned>(keyval), kv ? " (it was freed)" : "")
                           .c_str());
  return nullptr;
}

int callback_failed(const AttributeHolder& h, int keyval, int err) {
  return h.raise(err, strprintf("the delete callback of keyval 0x%08x returned %d",
                                static_cast<unsigned>(keyval), err)
                          .c_str());
}

}  // namespace

int set_attribute(ApiCall& call, const AttributeHolder& h, int keyval, void* value) {
  RankObjects& objects = CommObjects::get().rank(call.rank);
  int err = MPI_SUCCESS;
  if (!user_keyval(h, objects, keyval, &err, false)) return err;
  if (objects.attributes.count(AttrKey{h.cache, keyval})) {
    err = delete_attribute(objects, h.handle, h.cache, keyval);
    if (err != MPI_SUCCESS) return callback_failed(h, keyval, err);
  }
  objects.attributes[AttrKey{h.cache, keyval}] = {value, objects.attributes_set++};
  ++objects.keyvals.find(keyval)->uses;
  return MPI_SUCCESS;
}

int get_attribute(ApiCall& call, const AttributeHolder& h, int keyval, void** value, int* flag) {
  RankObjects& objects = CommObjects::get().rank(call.rank);
  int err = MPI_SUCCESS;
  if (!user_keyval(h, objects, keyval, &err, true)) return err;
  auto it = objects.attributes.find(AttrKey{h.cache, keyval});
  *flag = it != objects.attributes.end();
  if (*flag) *value = it->second.value;
  return MPI_SUCCESS;
}

int delete_attribute(ApiCall& call, const AttributeHolder& h, int keyval) {
  RankObjects& objects = CommObjects::get().rank(call.rank);
  int err = MPI_SUCCESS;
  if (!user_keyval(h, objects, keyval, &err, true)) return err;
  err = delete_attribute(objects, h.handle, h.cache, keyval);
  return err == MPI_SUCCESS ? err : callback_failed(h, keyval, err);
}

int copy_attributes(ApiCall& call, int from_handle, const void* from, const void* to) {
  RankObjects* found = CommObjects::get().find_rank(call.rank);
  if (!found) return MPI_SUCCESS;
  RankObjects& objects = *found;
  for (int keyval : keyvals_on(objects, from)) {
    auto it = objects.attributes.find(AttrKey{from, keyval});
    Keyval* kv = objects.keyvals.find(keyval);
    if (it == objects.attributes.end() || !kv->copy) continue;  // MPI_COMM_NULL_COPY_FN
    void* out = nullptr;
    int flag = 0;
    int err = kv->copy(from_handle, keyval, kv->extra_state, it->second.value, &out, &flag);
    if (err != MPI_SUCCESS) return err;
    if (!flag) continue;
    objects.attributes[AttrKey{to, keyval}] = {out, objects.attributes_set++};
    ++objects.keyvals.find(keyval)->uses;
  }
  return MPI_SUCCESS;
}

int delete_attributes(ApiCall& call, int handle, const void* object) {
  RankObjects* objects = CommObjects::get().find_rank(call.rank);
  if (!objects) return MPI_SUCCESS;  // this rank never made a keyval
  // Last set, first deleted.
  const std::vector<int> keyvals = keyvals_on(*objects, object);
  for (auto k = keyvals.rbegin(); k != keyvals.rend(); ++k) {
    int err = delete_attribute(*objects, handle, object, *k);
    if (err != MPI_SUCCESS) return err;
  }
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi
