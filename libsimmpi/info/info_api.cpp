// SPDX-License-Identifier: Apache-2.0
// The MPI_Info functions (MPI-3.1 9): create, set, get, delete, count and list keys, duplicate
// and free. Keys and values are C strings of at most MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL
// characters; keys keep the order in which they were first set, which MPI_Info_get_nthkey
// follows (as MPICH does). MPI_INFO_ENV can be read and duplicated, not changed or freed.
// Every one may be called at any time, before MPI_Init or MPI_Session_init too (MPI-4.1 11.4.1):
// a session's info is made before the session.
#include <cstring>
#include <string>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/world.hpp"
#include "libsimmpi/info/info_objects.hpp"

using namespace simmpi::mpi;

namespace {

constexpr ApiCall::Needs kAnyTime = ApiCall::Needs::Nothing;

// The info `h` names for the caller, or nullptr after raising MPI_ERR_INFO. `change`: the call
// modifies or frees it, which MPI_INFO_ENV does not allow.
Info* lookup(ApiCall& call, MPI_Info h, bool change, int* err) {
  InfoObjects& objects = InfoObjects::get();
  const Info* info = change ? objects.find_mutable(call.rank, h) : objects.find(call.rank, h);
  if (info) return const_cast<Info*>(info);
  if (h == MPI_INFO_ENV)
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed or freed");
  else if (h == MPI_INFO_NULL)
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_INFO, "info is MPI_INFO_NULL");
  else
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_INFO,
                     "info=0x%08x is not an info object of this rank (never created, or freed)",
                     static_cast<unsigned>(h));
  return nullptr;
}

// Checks a key argument; MPI_SUCCESS or the error raised.
int check_key(ApiCall& call, const char* key) {
  if (!key) return call.fail(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "key is NULL");
  std::size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
  if (n == 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "key is empty");
  if (n > MPI_MAX_INFO_KEY)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_INFO_KEY,
                     "key \"%.40s...\" is longer than MPI_MAX_INFO_KEY (%d characters)", key,
                     MPI_MAX_INFO_KEY);
  return MPI_SUCCESS;
}

int check_value(ApiCall& call, const char* key, const char* value) {
  if (!value) return call.fail(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "value of \"%s\" is NULL", key);
  if (strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE,
                     "value of \"%s\" is longer than MPI_MAX_INFO_VAL (%d characters)", key,
                     MPI_MAX_INFO_VAL);
  return MPI_SUCCESS;
}

// Copies at most `max` characters of `text` and a terminating NUL into `out`.
void copy_out(const std::string& text, int max, char* out) {
  std::size_t n = std::min(text.size(), static_cast<std::size_t>(max));
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

}  // namespace

extern "C" {

int MPI_Info_create(MPI_Info* info) {
  ApiCall call("MPI_Info_create", kAnyTime);
  if (!info) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "info is NULL");
  *info = InfoObjects::get().add(call.rank, Info{});
  return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  ApiCall call("MPI_Info_set", kAnyTime);
  int err = MPI_SUCCESS;
  Info* i = lookup(call, info, true, &err);
  if (!i) return err;
  if ((err = check_key(call, key)) || (err = check_value(call, key, value))) return err;
  i->set(key, value);
  return MPI_SUCCESS;
}

// `valuelen` counts characters without the NUL, so `value` holds valuelen + 1 (MPI-3.1 9).
int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  ApiCall call("MPI_Info_get", kAnyTime);
  int err = MPI_SUCCESS;
  const Info* i = lookup(call, info, false, &err);
  if (!i) return err;
  if ((err = check_key(call, key))) return err;
  if (valuelen < 0 || !value || !flag)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "valuelen=%d, value=%p, flag=%p", valuelen,
                     static_cast<void*>(value), static_cast<void*>(flag));
  const auto* e = i->find(key);
  *flag = e != nullptr;
  if (e) copy_out(e->second, valuelen, value);
  return MPI_SUCCESS;
}

// MPI-4.1 10.2: *buflen is the size of `value` on input (the terminating NUL included; 0 leaves
// `value` untouched) and, with *flag set, the value's length plus one on output; a longer value
// is cut to *buflen - 1 characters.
int MPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  ApiCall call("MPI_Info_get_string", kAnyTime);
  int err = MPI_SUCCESS;
  const Info* i = lookup(call, info, false, &err);
  if (!i) return err;
  if ((err = check_key(call, key))) return err;
  if (!buflen || *buflen < 0 || (*buflen > 0 && !value) || !flag)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "buflen=%p (%d), value=%p, flag=%p",
                     static_cast<void*>(buflen), buflen ? *buflen : 0, static_cast<void*>(value),
                     static_cast<void*>(flag));
  const auto* e = i->find(key);
  *flag = e != nullptr;
  if (!e) return MPI_SUCCESS;
  if (*buflen > 0) copy_out(e->second, *buflen - 1, value);
  *buflen = static_cast<int>(e->second.size()) + 1;
  return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  ApiCall call("MPI_Info_get_valuelen", kAnyTime);
  int err = MPI_SUCCESS;
  const Info* i = lookup(call, info, false, &err);
  if (!i) return err;
  if ((err = check_key(call, key))) return err;
  if (!valuelen || !flag) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "an output is NULL");
  const auto* e = i->find(key);
  *flag = e != nullptr;
  if (e) *valuelen = static_cast<int>(e->second.size());
  return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  ApiCall call("MPI_Info_get_nkeys", kAnyTime);
  int err = MPI_SUCCESS;
  const Info* i = lookup(call, info, false, &err);
  if (!i) return err;
  if (!nkeys) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "nkeys is NULL");
  *nkeys = static_cast<int>(i->entries.size());
  return MPI_SUCCESS;
}

// `key` holds MPI_MAX_INFO_KEY + 1 characters.
int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  ApiCall call("MPI_Info_get_nthkey", kAnyTime);
  int err = MPI_SUCCESS;
  const Info* i = lookup(call, info, false, &err);
  if (!i) return err;
  int nkeys = static_cast<int>(i->entries.size());
  if (n < 0 || n >= nkeys)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "n=%d not in [0,%d), the info's keys", n, nkeys);
  if (!key) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "key is NULL");
  copy_out(i->entries[static_cast<std::size_t>(n)].first, MPI_MAX_INFO_KEY, key);
  return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  ApiCall call("MPI_Info_delete", kAnyTime);
  int err = MPI_SUCCESS;
  Info* i = lookup(call, info, true, &err);
  if (!i) return err;
  if ((err = check_key(call, key))) return err;
  if (!i->erase(key))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, "key \"%s\" is not in the info", key);
  return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  ApiCall call("MPI_Info_dup", kAnyTime);
  int err = MPI_SUCCESS;
  const Info* i = lookup(call, info, false, &err);
  if (!i) return err;
  if (!newinfo) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "newinfo is NULL");
  *newinfo = InfoObjects::get().add(call.rank, *i);
  return MPI_SUCCESS;
}

// MPI-4.1 11.4.1: MPI_INFO_ENV's keys, at any time; the program hands over its arguments, so
// "command" and "argv" (which MPI_INFO_ENV leaves out) are stated here.
int MPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  ApiCall call("MPI_Info_create_env", kAnyTime);
  if (!info) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "info is NULL");
  if (argc < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "argc=%d is negative", argc);
  Info env = InfoObjects::get().environment(call.rank);
  if (argc > 0 && argv && argv[0]) {
    env.set("command", argv[0]);
    std::string args;
    for (int i = 1; i < argc && argv[i]; ++i) args += (i > 1 ? " " : "") + std::string(argv[i]);
    if (!args.empty()) env.set("argv", args);
  }
  *info = InfoObjects::get().add(call.rank, std::move(env));
  return MPI_SUCCESS;
}

// MPI-4.1 9.4: the hardware the calling rank runs on, which in simmpi is its simulated node
// (the one hardware level simmpi's communicator splits know, mpi_shared_memory).
int MPI_Get_hw_resource_info(MPI_Info* hw_info) {
  ApiCall call("MPI_Get_hw_resource_info", kAnyTime);
  if (!hw_info) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "hw_info is NULL");
  const simmpi::hardware::Platform& p = call.world.platform();
  const int node = p.node_of(call.rank);
  int on_node = 0;
  for (int r = 0; r < call.world.size(); ++r) on_node += p.node_of(r) == node;
  Info hw;
  hw.set("mpi_hw_resource_type", "mpi_shared_memory");
  hw.set("simmpi_node", std::to_string(node));
  hw.set("simmpi_nodes", std::to_string(p.node_count()));
  hw.set("simmpi_ranks_on_node", std::to_string(on_node));
  *hw_info = InfoObjects::get().add(call.rank, std::move(hw));
  return MPI_SUCCESS;
}

int MPI_Info_free(MPI_Info* info) {
  ApiCall call("MPI_Info_free", kAnyTime);
  if (!info) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "info is NULL");
  int err = MPI_SUCCESS;
  if (!lookup(call, *info, true, &err)) return err;
  InfoObjects::get().remove(call.rank, *info);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
