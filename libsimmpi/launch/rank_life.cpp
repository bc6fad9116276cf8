// SPDX-License-Identifier: Apache-2.0
// Rank start (argv copy, constructors, main) and rank end (exit handlers).
#include "libsimmpi/launch/rank_life.hpp"

#include <unistd.h>

#include <cstring>
#include <memory>

#include "libsimmpi/launch/fiber_threads.hpp"
#include "runtime/core/error.hpp"
#include "runtime/privatize/program_image.hpp"
#include "runtime/sched/scheduler.hpp"

extern char** environ;

namespace simmpi::mpi {

namespace {

// exit() from one of a rank's threads would end the whole rank; its own fiber cannot be stopped
// from another fiber, so the run ends here, with mpirun's status for a failed rank.
[[noreturn]] void thread_exited(const runtime::Process& p, int status) {
  const std::string where =
      strprintf("%s called exit(%d) at simulated time %s", p.name().c_str(), status,
                runtime::Scheduler::instance()->local_now().to_string().c_str());
  if (status != 0) fatal(status & 0xff ? status & 0xff : 1, where + "; the job is stopped");
  fatal(1, where +
               ", which would end the whole rank: simmpi cannot stop the rank's other "
               "fibers from a thread; return from the thread's function or call pthread_exit");
}

}  // namespace

RankLives* RankLives::instance_ = nullptr;

RankLives::RankLives(UserMain user_main, std::vector<char*> argv, bool construct_globals, int ranks)
    : user_main_(user_main),
      argv_(std::move(argv)),
      construct_globals_(construct_globals),
      handlers_(static_cast<std::size_t>(ranks)),
      thread_handlers_(static_cast<std::size_t>(ranks)),
      argv_blocks_(static_cast<std::size_t>(ranks)),
      own_argv_(static_cast<std::size_t>(ranks)) {
  instance_ = this;
}

void RankLives::entry(void* arg) {
  auto* self = static_cast<RankLives*>(arg);
  int rank = runtime::Scheduler::instance()->current()->id();
  // Each rank gets its own argv (programs may permute it, e.g. getopt, or write into it): one
  // block holding the pointer array and the strings, freed when the rank ends.
  std::vector<const char*> source(self->argv_.begin(), self->argv_.end());
  const auto& own = self->own_argv_[static_cast<std::size_t>(rank)];
  if (!own.empty()) {
    source.clear();
    for (const std::string& a : own) source.push_back(a.c_str());
  }
  std::size_t argc = source.size();
  std::size_t bytes = (argc + 1) * sizeof(char*);
  for (const char* a : source) bytes += std::strlen(a) + 1;
  auto& block = self->argv_blocks_[static_cast<std::size_t>(rank)];
  block.reset(new char[bytes]);
  auto** argv = reinterpret_cast<char**>(block.get());
  char* text = block.get() + (argc + 1) * sizeof(char*);
  for (std::size_t i = 0; i < argc; ++i) {
    argv[i] = text;
    text = stpcpy(text, source[i]) + 1;
  }
  argv[argc] = nullptr;
  if (self->construct_globals_)
    runtime::ProgramImage::instance().run_constructors(static_cast<int>(argc), argv, environ);
  int status = self->user_main_(static_cast<int>(argc), argv, environ);
  self->end_rank(rank, status);
}

int RankLives::start_rank(runtime::SimTime start, std::vector<std::string> argv) {
  const int rank = runtime::Scheduler::instance()->add_rank(start, &RankLives::entry, this);
  if (rank >= 0) own_argv_[static_cast<std::size_t>(rank)] = std::move(argv);
  return rank;
}

void RankLives::add_exit_handler(int rank, void (*fn)(void*), void* arg) {
  handlers_[static_cast<std::size_t>(rank)].push_back(Handler{fn, arg});
}

void RankLives::add_thread_exit_handler(int rank, void (*fn)(void*), void* arg) {
  thread_handlers_[static_cast<std::size_t>(rank)].push_back(Handler{fn, arg});
}

void RankLives::run_handlers(std::vector<Handler>& list) {
  while (!list.empty()) {  // a handler may register more handlers
    Handler h = list.back();
    list.pop_back();
    h.fn(h.arg);
  }
  list.shrink_to_fit();
}

void RankLives::end_rank(int rank, int status) {
  const runtime::Process& me = *runtime::Scheduler::instance()->current();
  if (me.ordinal() > 0) thread_exited(me, status);
  runtime::Scheduler::instance()->enter_library();  // charges the rank's last stretch of code
  // As exit() does: the thread's thread_local destructors first, then the atexit handlers.
  run_handlers(thread_handlers_[static_cast<std::size_t>(rank)]);
  run_handlers(handlers_[static_cast<std::size_t>(rank)]);
  argv_blocks_[static_cast<std::size_t>(rank)].reset();
  end_program_threads(rank);  // a process's threads end with it
  runtime::Scheduler::instance()->finish_current(status);
}

}  // namespace simmpi::mpi
