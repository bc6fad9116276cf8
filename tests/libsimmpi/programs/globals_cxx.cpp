// SPDX-License-Identifier: Apache-2.0
// C++ globals per rank: namespace-scope objects with constructors (heap-owning ones included),
// static members, function-local statics, and destructors that run when each rank ends.
#include <mpi.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

std::string greeting = "a string long enough to live on the heap, not in the object";
std::vector<int> history;
std::map<int, std::string> names = {{1, "one"}, {2, "two"}};
int constructed = 0;

struct Counter {
  static int instances;
  int value = 0;
  Counter() {
    ++instances;
    ++constructed;
  }
  ~Counter() { std::printf("destructor of a rank's Counter ran (value %d)\n", value); }
};
int Counter::instances = 0;
Counter rank_counter;

int& local_static() {
  static int x = 7;
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = 0;
  // Constructors ran once for this rank, on this rank's copy.
  if (Counter::instances != 1 || constructed != 1) ++errors;
  if (names.size() != 2 || local_static() != 7) ++errors;
  greeting += " rank " + std::to_string(rank);
  names[100 + rank] = "mine";
  local_static() = rank;
  rank_counter.value = rank;
  for (int i = 0; i < 200; ++i) {
    history.push_back(rank * 1000 + i);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (history.size() != 200 || history[199] != rank * 1000 + 199) ++errors;
  if (names.size() != 3 || names.count(100 + rank) != 1) ++errors;
  if (local_static() != rank) ++errors;
  if (greeting.rfind(" rank " + std::to_string(rank)) == std::string::npos) ++errors;
  int total = 0;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("globals_cxx: %s (%d errors over %d ranks)\n", total ? "FAILED" : "OK", total,
                size);
  rank_counter.value = rank == 0 ? 1000 : rank;
  MPI_Finalize();
  return total != 0;
}
