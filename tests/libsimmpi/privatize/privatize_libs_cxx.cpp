// SPDX-License-Identifier: Apache-2.0
// C++ state per rank: a linked C++ library's global (built once by its constructor) and its
// thread_local object (built on each rank's first use, destroyed at each rank's end), the
// program's own thread_local objects, and a dlopened C library. Every rank writes its own
// values, lets the others run, exchanges payloads from those variables and checks its own.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <string>

int& cxx_global();
int& cxx_tls(int rank);

namespace {

int errors = 0;

struct Named {
  std::string name = "unset";
  int rank = -1;
  ~Named() {
    if (rank >= 0 && name != "rank " + std::to_string(rank))
      std::fprintf(stderr, "privatize_libs_cxx: rank %d's own thread_local destroyed as '%s'\n",
                   rank, name.c_str());
  }
};
thread_local Named exe_named;
thread_local int exe_counter = 9;

void check(bool ok, int rank, int line) {
  if (ok) return;
  ++errors;
  std::fprintf(stderr, "rank %d: check at line %d failed\n", rank, line);
}
#define CHECK(c) check((c), rank, __LINE__)

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(cxx_global() == 17 && cxx_tls(rank) == 17);
  CHECK(exe_named.name == "unset" && exe_counter == 9);
  void* plugin = dlopen(PLUGIN_PATH, RTLD_NOW);
  if (!plugin) MPI_Abort(MPI_COMM_WORLD, 2);
  auto state = reinterpret_cast<int* (*)()>(dlsym(plugin, "plugin_state"));
  CHECK(*state() == 99);
  cxx_global() = 100 + rank;
  cxx_tls(rank) = rank;
  exe_named.name = "rank " + std::to_string(rank);
  exe_named.rank = rank;
  exe_counter = 300 + rank;
  *state() = 400 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(cxx_global() == 100 + rank && cxx_tls(rank) == rank);
  CHECK(exe_named.name == "rank " + std::to_string(rank) && exe_counter == 300 + rank);
  CHECK(*state() == 400 + rank);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int got = -1;
  MPI_Sendrecv(&cxx_global(), 1, MPI_INT, next, 0, &exe_counter, 1, MPI_INT, prev, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&exe_counter, 1, MPI_INT, prev, 1, &got, 1, MPI_INT, next, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(exe_counter == 100 + prev && got == 100 + rank);
  CHECK(cxx_tls(rank) == rank && *state() == 400 + rank);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("privatize_libs_cxx: %s (%d ranks, %d errors)\n", total ? "FAILED" : "OK", size,
                total);
  MPI_Finalize();
  return total != 0;
}
