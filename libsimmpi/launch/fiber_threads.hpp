// SPDX-License-Identifier: Apache-2.0
// What the pthread, semaphore and OpenMP interposers share: whether a call comes from a rank's
// fiber (then it works on fibers) or from anywhere else (then it goes to the real function), the
// bookkeeping of a blocking call, and the records of the threads a rank started.
//
// Every rank and every thread a rank starts is a fiber of the one OS thread that runs the
// simulation. A pthread call made there must never block that OS thread (the fiber holding the
// mutex could then never run to release it): it blocks its fiber instead. The OpenMP runtime's
// worker threads are real OS threads: their calls, and those of the fiber whose OpenMP region
// runs on the host right now, go to the real functions.
#pragma once

#include <pthread.h>

#include <string>

#include "runtime/core/sim_time.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::mpi {

// The thread pointer of the OS thread that runs the simulation (fiber_threads.cpp).
extern const void* const g_simulation_thread;
// Whether the calling OS thread is the one that runs the simulation (and every rank's fiber).
// Cheap: compares the thread pointer (inline: every MPI call asks).
inline bool on_simulation_thread() {
  return __builtin_thread_pointer() == g_simulation_thread;
}

// The rank whose program code (or one of whose threads) makes a C library call that a process
// sees differently from another (clocks, sleeps, exit, rand, getopt...): the caller is on the
// simulation's OS thread, outside an OpenMP region running on the host, while ranks exist.
// -1 otherwise: the call is the host's (the loader, the simulator, an OpenMP worker).
int program_rank();
// The running process when a program's pthread call should work on fibers: called from program
// code (not inside an MPI call) of a rank or of one of its threads, on the simulation's OS
// thread, outside an OpenMP region running on the host. nullptr: use the real function.
// `call_site` is the interposer's return address: calls from libsimmpi.so's own code (the
// simulator's std::mutex, reached from a BLAS call) are the simulator's, never a fiber's.
runtime::Process* fiber_caller(const void* call_site);

// The process whose OpenMP region runs on the host now (its calls, and libgomp's, go to the real
// functions), or nullptr. Set by the OpenMP interposer around the real GOMP_parallel*.
runtime::Process* host_region_process();
void set_host_region_process(runtime::Process* p);

// Brackets a pthread call of a fiber like an MPI call: the program's own code before it is
// charged, the call is named in deadlock reports, and the fiber's lazily charged time passes
// first, so that it locks, signals or waits at its true simulated time. May yield.
class FiberCall {
 public:
  FiberCall(runtime::Process& p, const char* name);

  runtime::Scheduler& sched;
  runtime::Process& process;

 private:
  runtime::ScopedLibraryCall library_;
};

// A thread a rank started with pthread_create: a program thread process of the scheduler
// (Scheduler::spawn_program_thread). Its pthread_t is the record's address.
struct ThreadRecord {
  void* (*start)(void*) = nullptr;
  void* arg = nullptr;
  int rank = 0;
  int process = -1;  // scheduler process id while it runs
  void* result = nullptr;
  bool done = false;
  bool detached = false;
  bool cancelled = false;     // its rank ended: it ends at its next blocking pthread call
  int joiner = -1;            // process id blocked in pthread_join for it
  runtime::SimTime ended_at;  // when done: its simulated end
};

// The record of the thread process `process_id` runs, or nullptr (a rank's own fiber).
ThreadRecord* thread_of_process(int process_id);

// Whether `p` is a thread whose rank has ended (end_program_threads): its blocking pthread calls
// end it (end_cancelled) once they have undone what they queued.
bool is_cancelled(const runtime::Process& p);
[[noreturn]] void end_cancelled(runtime::Process& p);

// The simulated time of a pthread deadline (CLOCK_REALTIME or CLOCK_MONOTONIC, which programs
// read as simulated time: see libc_interpose.cpp).
runtime::SimTime deadline_of(const timespec& abstime, clockid_t clock);

// "rank 3's thread 1", or "rank 3".
std::string process_name(int process_id);

// Called when rank `rank` ends (returns from main or exits): its threads end too, as when a
// process exits. Those blocked in a pthread call end now; those blocked in MPI or still
// computing run on (a program that ends with threads inside MPI is erroneous).
void end_program_threads(int rank);

}  // namespace simmpi::mpi
