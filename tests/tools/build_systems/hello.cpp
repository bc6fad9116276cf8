// SPDX-License-Identifier: Apache-2.0
// A C++ MPI program for the FindMPI project (MPI::MPI_CXX).
#include <mpi.h>

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> ranks(size);
  MPI_Gather(&rank, 1, MPI_INT, ranks.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) std::cout << "cxx gathered " << ranks.back() << " of " << size << "\n";
  MPI_Finalize();
  return 0;
}
