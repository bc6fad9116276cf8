// SPDX-License-Identifier: Apache-2.0
// gfortran's runtime keeps one command line for the whole process: a Fortran main program hands
// it argv (_gfortran_set_args) when it starts, that is once per rank, each with the rank's own
// argv, which ends with the rank. So the runtime is given copies that live as long as the
// process, one per distinct command line (MPI_COMM_SPAWN's children have their own), and each
// of its command-line intrinsics (GET_COMMAND_ARGUMENT, GET_COMMAND, COMMAND_ARGUMENT_COUNT,
// GETARG, IARGC) first hands the runtime the calling rank's copy.
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libsimmpi/core/world.hpp"

namespace {

struct KeptArgs {
  std::vector<std::string> text;
  std::vector<char*> pointers;
};

using SetArgs = void (*)(int, char**);

SetArgs real_set_args() {
  static auto real = reinterpret_cast<SetArgs>(dlsym(RTLD_NEXT, "_gfortran_set_args"));
  return real;
}

// The distinct command lines (never moved once made) and which one each rank has.
std::map<std::vector<std::string>, KeptArgs>& command_lines() {
  static std::map<std::vector<std::string>, KeptArgs> lines;
  return lines;
}
std::vector<const KeptArgs*>& rank_args() {
  static std::vector<const KeptArgs*> by_rank;
  return by_rank;
}

int running_rank() {
  using simmpi::mpi::World;
  return World::exists() ? World::get().current_rank() : -1;
}

const KeptArgs& keep(int argc, char** argv) {
  std::vector<std::string> text(argv, argv + argc);
  auto [it, added] = command_lines().try_emplace(text);
  if (added) {
    it->second.text = std::move(text);
    for (std::string& s : it->second.text) it->second.pointers.push_back(s.data());
    it->second.pointers.push_back(nullptr);
  }
  return it->second;
}

void hand_over(const KeptArgs& args) {
  if (SetArgs real = real_set_args())
    real(static_cast<int>(args.text.size()), const_cast<char**>(args.pointers.data()));
}

// Before an intrinsic reads the command line: the running rank's, when it has one.
void select_running_rank() {
  int rank = running_rank();
  if (rank >= 0 && static_cast<std::size_t>(rank) < rank_args().size() && rank_args()[rank])
    hand_over(*rank_args()[static_cast<std::size_t>(rank)]);
}

// libgfortran's own `name`, of type Fn, called once the running rank's command line is in place.
template <class Fn>
Fn* next(const char* name) {
  select_running_rank();
  return reinterpret_cast<Fn*>(dlsym(RTLD_NEXT, name));
}

}  // namespace

#pragma GCC visibility push(default)
extern "C" {

void _gfortran_set_args(int argc, char** argv) {
  const KeptArgs& kept = keep(argc, argv);
  int rank = running_rank();
  if (rank >= 0) {
    if (rank_args().size() <= static_cast<std::size_t>(rank)) rank_args().resize(rank + 1);
    rank_args()[static_cast<std::size_t>(rank)] = &kept;
  }
  hand_over(kept);
}

// libgfortran's signatures (libgfortran/intrinsics/args.c): the hidden lengths are size_t.
std::int32_t _gfortran_iargc() {
  return next<std::int32_t()>("_gfortran_iargc")();
}
void _gfortran_getarg_i4(std::int32_t* pos, char* val, std::size_t val_len) {
  next<void(std::int32_t*, char*, std::size_t)>("_gfortran_getarg_i4")(pos, val, val_len);
}
void _gfortran_getarg_i8(std::int64_t* pos, char* val, std::size_t val_len) {
  next<void(std::int64_t*, char*, std::size_t)>("_gfortran_getarg_i8")(pos, val, val_len);
}
void _gfortran_get_command_argument_i4(std::int32_t* number, char* value, std::int32_t* length,
                                       std::int32_t* status, std::size_t value_len) {
  next<void(std::int32_t*, char*, std::int32_t*, std::int32_t*, std::size_t)>(
      "_gfortran_get_command_argument_i4")(number, value, length, status, value_len);
}
void _gfortran_get_command_argument_i8(std::int64_t* number, char* value, std::int64_t* length,
                                       std::int64_t* status, std::size_t value_len) {
  next<void(std::int64_t*, char*, std::int64_t*, std::int64_t*, std::size_t)>(
      "_gfortran_get_command_argument_i8")(number, value, length, status, value_len);
}
void _gfortran_get_command_i4(char* command, std::int32_t* length, std::int32_t* status,
                              std::size_t command_len) {
  next<void(char*, std::int32_t*, std::int32_t*, std::size_t)>("_gfortran_get_command_i4")(
      command, length, status, command_len);
}
void _gfortran_get_command_i8(char* command, std::int64_t* length, std::int64_t* status,
                              std::size_t command_len) {
  next<void(char*, std::int64_t*, std::int64_t*, std::size_t)>("_gfortran_get_command_i8")(
      command, length, status, command_len);
}

}  // extern "C"
#pragma GCC visibility pop
