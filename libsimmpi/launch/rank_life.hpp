// SPDX-License-Identifier: Apache-2.0
// The life of one rank as a process: its own argv, its own C++ globals (constructed when it
// starts), the atexit handlers its code registers, and its end (return from main or exit()).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/core/sim_time.hpp"

namespace simmpi::mpi {

using UserMain = int (*)(int, char**, char**);

class RankLives {
 public:
  RankLives(UserMain user_main, std::vector<char*> argv, bool construct_globals, int ranks);
  // Entry point of rank fibers; `arg` is this object, the rank is the running process.
  static void entry(void* lives);
  // Starts a new rank (MPI_Comm_spawn's child) at `start`: the program's main with `argv` (its
  // argv[0] first), from fresh globals. Returns its world rank, or -1 when no slot is left.
  // Does not switch.
  int start_rank(runtime::SimTime start, std::vector<std::string> argv);
  // Registers an exit handler of the running rank (its code called atexit or __cxa_atexit).
  void add_exit_handler(int rank, void (*fn)(void*), void* arg);
  // Registers a destructor of one of the running rank's thread_local objects.
  void add_thread_exit_handler(int rank, void (*fn)(void*), void* arg);
  // Runs the rank's thread_local destructors, then its exit handlers, each newest first, then
  // ends the rank with `status`.
  [[noreturn]] void end_rank(int rank, int status);

  static RankLives* instance() { return instance_; }

 private:
  struct Handler {
    void (*fn)(void*);
    void* arg;
  };
  static RankLives* instance_;
  UserMain user_main_;
  std::vector<char*> argv_;
  bool construct_globals_;
  void run_handlers(std::vector<Handler>& list);

  std::vector<std::vector<Handler>> handlers_;
  std::vector<std::vector<Handler>> thread_handlers_;
  std::vector<std::unique_ptr<char[]>> argv_blocks_;
  std::vector<std::vector<std::string>> own_argv_;  // by rank: a started rank's, else empty
};

}  // namespace simmpi::mpi
