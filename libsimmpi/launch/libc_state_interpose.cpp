// SPDX-License-Identifier: Apache-2.0
// The C library's per-process state, per rank. Every rank is a fiber of one process, so state
// the C library keeps for "the process" would be shared by all ranks: rand() would hand each
// rank the next number of one sequence, strtok(NULL, ...) would continue another rank's string,
// getopt would find the arguments already parsed by rank 0. Under MPI each rank is a process
// with its own; so here:
//  - rand, srand, random, srandom, initstate, setstate: each rank has its own generator,
//    seeded 1 as a new process's is (glibc's algorithm through its reentrant functions, so a
//    rank draws exactly the numbers a process would);
//  - drand48, erand48, lrand48, nrand48, mrand48, jrand48, srand48, seed48, lcong48: each rank
//    has its own state (and its own lcong48 parameters);
//  - strtok: each rank its own saved position;
//  - getopt, getopt_long, getopt_long_only: each rank parses from the start: optind, opterr,
//    optopt and optarg are the rank's own (privatized like any global when the program
//    references them, kept here otherwise), and a rank's first call restarts the C library's
//    parser (optind = 0, glibc's documented reset).
// Threads of a rank share their rank's state, as threads of a process do. Calls from outside
// ranks (the loader, the simulator, OpenMP workers) use the C library's own state.
// errno is kept per process by the scheduler (Scheduler::resume).
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <memory>
#include <vector>

#include "libsimmpi/launch/fiber_threads.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "runtime/privatize/program_image.hpp"

namespace {

using simmpi::mpi::RealFunction;

struct RankLibcState {
  random_data random{};  // rand and random (glibc's TYPE_3 generator, 128 bytes of state)
  char random_buffer[128] = {};
  drand48_data drand48{};  // zero: what a new process's drand48 starts from
  char* strtok_next = nullptr;
  // getopt's public variables, when the program does not reference them (then they are the C
  // library's, shared; when it does, they are the executable's and privatized).
  int optind = 1, opterr = 1, optopt = '?';
  char* optarg = nullptr;
  bool parsed = false;  // has called getopt

  RankLibcState() { initstate_r(1, random_buffer, sizeof random_buffer, &random); }
};

std::vector<std::unique_ptr<RankLibcState>> g_states;

RankLibcState& state_of(int rank) {
  if (static_cast<std::size_t>(rank) >= g_states.size()) g_states.resize(rank + 1);
  auto& s = g_states[static_cast<std::size_t>(rank)];
  if (!s) s = std::make_unique<RankLibcState>();
  return *s;
}

// The rank calling, or -1 for the C library's own state.
int rank_of_caller() {
  return simmpi::mpi::program_rank();
}

// ---- rand and random
constinit RealFunction<int (*)()> real_rand{"rand"};
constinit RealFunction<void (*)(unsigned)> real_srand{"srand"};
constinit RealFunction<long (*)()> real_random{"random"};
constinit RealFunction<void (*)(unsigned)> real_srandom{"srandom"};
constinit RealFunction<char* (*)(unsigned, char*, size_t)> real_initstate{"initstate"};
constinit RealFunction<char* (*)(char*)> real_setstate{"setstate"};

long rank_random(int rank) {
  std::int32_t r;
  random_r(&state_of(rank).random, &r);
  return r;
}

// ---- drand48 and its family
constinit RealFunction<double (*)()> real_drand48{"drand48"};
constinit RealFunction<double (*)(unsigned short*)> real_erand48{"erand48"};
constinit RealFunction<long (*)()> real_lrand48{"lrand48"};
constinit RealFunction<long (*)(unsigned short*)> real_nrand48{"nrand48"};
constinit RealFunction<long (*)()> real_mrand48{"mrand48"};
constinit RealFunction<long (*)(unsigned short*)> real_jrand48{"jrand48"};
constinit RealFunction<void (*)(long)> real_srand48{"srand48"};
constinit RealFunction<unsigned short* (*)(unsigned short*)> real_seed48{"seed48"};
constinit RealFunction<void (*)(unsigned short*)> real_lcong48{"lcong48"};

// ---- strtok
constinit RealFunction<char* (*)(char*, const char*)> real_strtok{"strtok"};

// ---- getopt
constinit RealFunction<int (*)(int, char* const*, const char*)> real_getopt{"getopt"};
using GetoptLong = int (*)(int, char* const*, const char*, const option*, int*);
constinit RealFunction<GetoptLong> real_getopt_long{"getopt_long"};
constinit RealFunction<GetoptLong> real_getopt_long_only{"getopt_long_only"};

// Whether getopt's variables are the executable's (it references them: copy relocations), and
// so already switched with the rank's other globals.
bool getopt_variables_privatized() {
  const auto& image = simmpi::runtime::ProgramImage::instance();
  return image.captured() && image.writable().contains(&optind);
}

// Runs `parse` (the C library's getopt) on the calling rank's state.
template <class Parse>
int rank_getopt(int rank, Parse&& parse) {
  static int last_rank = -1;  // whose parse the C library's internal state belongs to
  RankLibcState& s = state_of(rank);
  const bool privatized = getopt_variables_privatized();
  if (!privatized) optind = s.optind, opterr = s.opterr, optopt = s.optopt, optarg = s.optarg;
  // A rank's first call starts a new parse, as in a new process: glibc restarts its parser
  // (its position inside grouped options, its permutation) when optind is 0.
  if (!s.parsed && last_rank != rank && optind == 1) optind = 0;
  s.parsed = true;
  last_rank = rank;
  const int c = parse();
  if (!privatized) s.optind = optind, s.opterr = opterr, s.optopt = optopt, s.optarg = optarg;
  return c;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int rand() noexcept {
  const int rank = rank_of_caller();
  return rank < 0 ? real_rand() : static_cast<int>(rank_random(rank));
}

__attribute__((visibility("default"))) void srand(unsigned seed) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_srand(seed);
  srandom_r(seed, &state_of(rank).random);
}

__attribute__((visibility("default"))) long random() noexcept {
  const int rank = rank_of_caller();
  return rank < 0 ? real_random() : rank_random(rank);
}

__attribute__((visibility("default"))) void srandom(unsigned seed) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_srandom(seed);
  srandom_r(seed, &state_of(rank).random);
}

// As glibc's: returns the previous state array (the word before the generator's state).
__attribute__((visibility("default"))) char* initstate(unsigned seed, char* buffer,
                                                       size_t bytes) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_initstate(seed, buffer, bytes);
  random_data& r = state_of(rank).random;
  char* previous = reinterpret_cast<char*>(r.state - 1);
  return initstate_r(seed, buffer, bytes, &r) < 0 ? nullptr : previous;
}

__attribute__((visibility("default"))) char* setstate(char* buffer) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_setstate(buffer);
  random_data& r = state_of(rank).random;
  char* previous = reinterpret_cast<char*>(r.state - 1);
  return setstate_r(buffer, &r) < 0 ? nullptr : previous;
}

__attribute__((visibility("default"))) double drand48() noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_drand48();
  double x;
  drand48_r(&state_of(rank).drand48, &x);
  return x;
}

__attribute__((visibility("default"))) double erand48(unsigned short xsubi[3]) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_erand48(xsubi);
  double x;
  erand48_r(xsubi, &state_of(rank).drand48, &x);
  return x;
}

__attribute__((visibility("default"))) long lrand48() noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_lrand48();
  long x;
  lrand48_r(&state_of(rank).drand48, &x);
  return x;
}

__attribute__((visibility("default"))) long nrand48(unsigned short xsubi[3]) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_nrand48(xsubi);
  long x;
  nrand48_r(xsubi, &state_of(rank).drand48, &x);
  return x;
}

__attribute__((visibility("default"))) long mrand48() noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_mrand48();
  long x;
  mrand48_r(&state_of(rank).drand48, &x);
  return x;
}

__attribute__((visibility("default"))) long jrand48(unsigned short xsubi[3]) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_jrand48(xsubi);
  long x;
  jrand48_r(xsubi, &state_of(rank).drand48, &x);
  return x;
}

__attribute__((visibility("default"))) void srand48(long seed) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_srand48(seed);
  srand48_r(seed, &state_of(rank).drand48);
}

// As glibc's: returns the rank's previous state (kept in its drand48 data).
__attribute__((visibility("default"))) unsigned short* seed48(unsigned short seed16v[3]) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_seed48(seed16v);
  drand48_data& d = state_of(rank).drand48;
  seed48_r(seed16v, &d);
  return d.__old_x;
}

__attribute__((visibility("default"))) void lcong48(unsigned short param[7]) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_lcong48(param);
  lcong48_r(param, &state_of(rank).drand48);
}

__attribute__((visibility("default"))) char* strtok(char* s, const char* delim) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_strtok(s, delim);
  return strtok_r(s, delim, &state_of(rank).strtok_next);
}

__attribute__((visibility("default"))) int getopt(int argc, char* const argv[],
                                                  const char* optstring) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_getopt(argc, argv, optstring);
  return rank_getopt(rank, [&] { return real_getopt(argc, argv, optstring); });
}

__attribute__((visibility("default"))) int getopt_long(int argc, char* const argv[],
                                                       const char* optstring,
                                                       const option* longopts,
                                                       int* longindex) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_getopt_long(argc, argv, optstring, longopts, longindex);
  return rank_getopt(rank,
                     [&] { return real_getopt_long(argc, argv, optstring, longopts, longindex); });
}

__attribute__((visibility("default"))) int getopt_long_only(int argc, char* const argv[],
                                                            const char* optstring,
                                                            const option* longopts,
                                                            int* longindex) noexcept {
  const int rank = rank_of_caller();
  if (rank < 0) return real_getopt_long_only(argc, argv, optstring, longopts, longindex);
  return rank_getopt(
      rank, [&] { return real_getopt_long_only(argc, argv, optstring, longopts, longindex); });
}

}  // extern "C"
