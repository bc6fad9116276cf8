/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi_poll_rounds against the loop it stands for: rounds of { SIMMPI_SLEEP(period);
 * MPI_Iprobe } until a probe finds rank 1's message or the rounds run out. Each case runs both
 * ways from the same absolute instant; the round numbers and the times at which the message is
 * seen (or the rounds end) must be equal to the picosecond, in cases where the message arrives
 * in the first round, a later round, before the rounds start, after a message that does not
 * match, after the last round, and with no bound on the rounds. */
#include <math.h>
#include <mpi.h>
#include <simmpi.h>
#include <simmpi_compute.h>

#include "check.h"

enum { kTag = 7, kOtherTag = 8 };

struct outcome {
  long round;  /* the round whose probe found the message, 0 if none did */
  double seen; /* when the probe found it, or the rounds ended; from the case's start */
};

/* Rank 1: a non-matching message at `other` (if >= 0), then the matching one at `send`, both
 * from `start`. Rank 0 polls from `start` either way; both receive what was sent. */
static struct outcome run_case(int primitive, double start, double period, long rounds, double send,
                               double other) {
  struct outcome r = {0, 0.0};
  int rank, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    if (other >= 0) {
      SIMMPI_SLEEP(start + other - simmpi_now());
      MPI_Send(&x, 1, MPI_INT, 0, kOtherTag, MPI_COMM_WORLD);
    }
    SIMMPI_SLEEP(start + send - simmpi_now());
    MPI_Send(&x, 1, MPI_INT, 0, kTag, MPI_COMM_WORLD);
    return r;
  }
  SIMMPI_SLEEP(start - simmpi_now());
  (void)simmpi_now(); /* lets the time pass: both ways start with nothing owed */
  int flag = 0;
  if (primitive) {
    CHECK(simmpi_poll_rounds(period, rounds, 1, kTag, MPI_COMM_WORLD, &r.round) == MPI_SUCCESS,
          "simmpi_poll_rounds failed");
    if (r.round) {
      MPI_Iprobe(1, kTag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      CHECK(flag, "the probe after round %ld found nothing", r.round);
    }
  } else {
    for (long i = 1; rounds < 0 || i <= rounds; ++i) {
      SIMMPI_SLEEP(period);
      MPI_Iprobe(1, kTag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      if (flag) {
        r.round = i;
        break;
      }
    }
  }
  r.seen = simmpi_now() - start;
  if (other >= 0) MPI_Recv(&x, 1, MPI_INT, 1, kOtherTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(&x, 1, MPI_INT, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return r;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const struct {
    const char* what;
    double period;
    long rounds;
    double send, other;
    long expected_round; /* -1: any nonzero round */
  } cases[] = {
      {"found in the first round", 1e-3, 10, 0.2e-3, -1, 1},
      {"found in a later round", 1e-3, 10, 3.7e-3, -1, 4},
      {"already there", 1e-3, 10, -0.5e-3, -1, 1},
      {"after a message that does not match", 1e-3, 10, 2.5e-3, 1.5e-3, 3},
      {"after the last round", 1e-3, 5, 9e-3, -1, 0},
      {"with no bound", 1e-3, -1, 20.3e-3, -1, 21},
      {"rounds of probes alone", 0.0, -1, 0.1e-3, -1, -1},
  };
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double start = 0.1;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    struct outcome loop =
        run_case(0, start, cases[c].period, cases[c].rounds, cases[c].send, cases[c].other);
    start += 0.1;
    struct outcome model =
        run_case(1, start, cases[c].period, cases[c].rounds, cases[c].send, cases[c].other);
    start += 0.1;
    if (rank != 0) continue;
    CHECK(
        (model.round == loop.round || cases[c].period == 0) && fabs(model.seen - loop.seen) < 1e-13,
        "%s: simmpi_poll_rounds gives round %ld at %.12f s, the loop round %ld at %.12f s",
        cases[c].what, model.round, model.seen, loop.round, loop.seen);
    const long want = cases[c].expected_round;
    CHECK(want < 0 ? loop.round > 0 : loop.round == want, "%s: round %ld, expected %ld",
          cases[c].what, loop.round, want);
  }
  return finish("poll_rounds");
}
