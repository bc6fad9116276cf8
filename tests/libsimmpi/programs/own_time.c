/* SPDX-License-Identifier: Apache-2.0
 * The program's own code is charged (runtime.host_time = measure): each rank spins for a known
 * host CPU time between barriers, and the simulated time that passes is compared with it.
 *   own_time busy MS ITERATIONS [EXPECTED_RATIO]  prints "ratio R" (simulated / host CPU time)
 *                                                 and "own_time: OK" when within 5% of the ratio
 *   own_time sleep                                each sleep call lets its simulated time pass
 * SIMMPI_TEST_EXTRA_ITERATION=1 makes rank 1 run one iteration more (a run that diverges from a
 * recorded compute profile without changing the arguments). */
#include <mpi.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The thread's CPU clock through the system call: clock_gettime itself reads simulated time. */
static double cpu_now(void) {
  struct timespec ts;
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double spin(double seconds) {
  double c0 = cpu_now();
  volatile double x = 0;
  while (cpu_now() - c0 < seconds)
    for (int k = 0; k < 1000; k++) x += k;
  return cpu_now() - c0;
}

static int busy(int rank, int argc, char** argv) {
  double ms = argc > 2 ? atof(argv[2]) : 10, expected = argc > 4 ? atof(argv[4]) : 0;
  int iterations = argc > 3 ? atoi(argv[3]) : 10;
  const char* extra = getenv("SIMMPI_TEST_EXTRA_ITERATION");
  if (extra && rank == 1) iterations++;
  double host = 0, t0 = MPI_Wtime();
  for (int i = 0; i < iterations; i++) {
    host += spin(ms * 1e-3);
    MPI_Barrier(MPI_COMM_SELF);
  }
  double simulated = MPI_Wtime() - t0, ratio = simulated / host;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) return 0;
  printf("ratio %.4f (simulated %.9f s, host CPU %.6f s)\n", ratio, simulated, host);
  if (expected > 0) {
    if (ratio < expected * 0.95 || ratio > expected * 1.05) {
      printf("own_time: ratio %.4f is not within 5%% of %.4f\n", ratio, expected);
      return 1;
    }
    printf("own_time: OK\n");
  }
  return 0;
}

/* Each sleep must let exactly its time pass (plus the clock reads' poll cost, under 1 us). */
static int check_slept(const char* what, double t0, double asked) {
  double slept = MPI_Wtime() - t0;
  if (slept < asked || slept > asked + 1e-6) {
    printf("own_time: %s slept %.9f s of simulated time, asked %.9f s\n", what, slept, asked);
    return 1;
  }
  return 0;
}

static int sleeps(int rank) {
  int bad = 0;
  double t = MPI_Wtime();
  usleep(200000);
  bad |= check_slept("usleep(200000)", t, 0.2);
  t = MPI_Wtime();
  sleep(2);
  bad |= check_slept("sleep(2)", t, 2.0);
  struct timespec ts = {0, 300000000}, rem;
  t = MPI_Wtime();
  nanosleep(&ts, &rem);
  bad |= check_slept("nanosleep(0.3 s)", t, 0.3);
  t = MPI_Wtime();
  clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
  bad |= check_slept("clock_nanosleep(0.3 s)", t, 0.3);
  struct timespec now, until;
  clock_gettime(CLOCK_REALTIME, &now);
  until.tv_sec = now.tv_sec + 1, until.tv_nsec = now.tv_nsec;
  t = MPI_Wtime();
  clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until, NULL);
  bad |= check_slept("clock_nanosleep(TIMER_ABSTIME, now + 1 s)", t, 1.0);
  struct timeval tv = {0, 50000};
  t = MPI_Wtime();
  select(0, NULL, NULL, NULL, &tv);
  bad |= check_slept("select(0, ..., 50 ms)", t, 0.05);
  t = MPI_Wtime();
  poll(NULL, 0, 70);
  bad |= check_slept("poll(NULL, 0, 70 ms)", t, 0.07);
  /* Ranks sleeping different times meet at a barrier at the longest. */
  t = MPI_Wtime();
  usleep(100000 * (rank + 1));
  MPI_Barrier(MPI_COMM_WORLD);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double waited = MPI_Wtime() - t;
  if (waited < 0.1 * size || waited > 0.1 * size + 1e-3) {
    printf("own_time: rank %d waited %.9f s at the barrier after the sleeps\n", rank, waited);
    bad = 1;
  }
  if (!bad && rank == 0) printf("own_time: sleeps OK\n");
  return bad;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, status = 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && !strcmp(argv[1], "busy")) status = busy(rank, argc, argv);
  if (argc > 1 && !strcmp(argv[1], "sleep")) status = sleeps(rank);
  MPI_Finalize();
  return status;
}
