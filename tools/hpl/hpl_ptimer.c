/* SPDX-License-Identifier: Apache-2.0 */
/* HPL's process timers (testing/ptimer/HPL_ptimer.c), which simmpi-hpl builds in place of HPL's
 * file: the same functions with the same behaviour, but their state (four arrays of
 * HPL_NPTIMER doubles, 2 KiB) on the heap instead of in the program's globals. simmpi gives each
 * rank its own copy of the globals by copying them in and out at every switch between ranks, and
 * at thousands of ranks those copies miss the cache: HPL's timer arrays were half of the 4.4 KiB
 * copied, and the copies 14-18% of a full-size run's host time. (HPL's other timer file,
 * testing/timer/HPL_timer.c, is left out of the build: nothing calls it, and HPL's own build only
 * archives it.) */
#include <stdio.h>
#include <stdlib.h>

#include "hpl.h"

struct ProcessTimers {
  int disabled;
  double cpusec[HPL_NPTIMER], cpustart[HPL_NPTIMER], wallsec[HPL_NPTIMER], wallstart[HPL_NPTIMER];
};
static struct ProcessTimers* timers; /* this rank's */

static struct ProcessTimers* rank_timers(void) {
  if (!timers) {
    timers = (struct ProcessTimers*)calloc(1, sizeof *timers);
    if (!timers) HPL_pabort(__LINE__, "HPL_ptimer", "Memory allocation failed");
  }
  return timers;
}

void HPL_ptimer_boot(void) {
  struct ProcessTimers* t = rank_timers();
  t->disabled = 0;
  for (int i = 0; i < HPL_NPTIMER; i++) {
    t->cpusec[i] = t->wallsec[i] = HPL_rzero;
    t->cpustart[i] = t->wallstart[i] = HPL_PTIMER_STARTFLAG;
  }
}

void HPL_ptimer(const int I) {
  struct ProcessTimers* t = rank_timers();
  if (t->disabled) return;
  if (t->wallstart[I] == HPL_PTIMER_STARTFLAG) {
    t->wallstart[I] = HPL_ptimer_walltime();
    t->cpustart[I] = HPL_ptimer_cputime();
  } else {
    t->cpusec[I] += HPL_ptimer_cputime() - t->cpustart[I];
    t->wallsec[I] += HPL_ptimer_walltime() - t->wallstart[I];
    t->wallstart[I] = HPL_PTIMER_STARTFLAG;
  }
}

void HPL_ptimer_enable(void) {
  rank_timers()->disabled = 0;
}

void HPL_ptimer_disable(void) {
  rank_timers()->disabled = 1;
}

double HPL_ptimer_inquire(const HPL_T_PTIME TMTYPE, const int I) {
  const struct ProcessTimers* t = rank_timers();
  if (TMTYPE == HPL_WALL_PTIME)
    return HPL_ptimer_walltime() == HPL_PTIMER_ERROR ? HPL_PTIMER_ERROR : t->wallsec[I];
  return HPL_ptimer_cputime() == HPL_PTIMER_ERROR ? HPL_PTIMER_ERROR : t->cpusec[I];
}

void HPL_ptimer_combine(MPI_Comm COMM, const HPL_T_PTIME_OP OPE, const HPL_T_PTIME TMTYPE,
                        const int N, const int IBEG, double* TIMES) {
  struct ProcessTimers* t = rank_timers();
  const int was_disabled = t->disabled;
  t->disabled = 1;
  const int wall = TMTYPE == HPL_WALL_PTIME;
  if ((wall ? HPL_ptimer_walltime() : HPL_ptimer_cputime()) == HPL_PTIMER_ERROR) {
    for (int i = 0; i < N; i++) TIMES[i] = HPL_PTIMER_ERROR;
    return; /* as HPL's: the timers stay disabled */
  }
  for (int i = 0; i < N; i++) TIMES[i] = Mmax(HPL_rzero, (wall ? t->wallsec : t->cpusec)[IBEG + i]);
  const HPL_T_OP op = OPE == HPL_AMIN_PTIME ? HPL_min : OPE == HPL_SUM_PTIME ? HPL_sum : HPL_max;
  (void)HPL_all_reduce((void*)TIMES, N, HPL_DOUBLE, op, COMM);
  t->disabled = was_disabled;
  /* HPL_pdtest combines timer 0 alone into the run's time, then prints it with 2 decimals and
   * its Gflop/s with 4 digits; simmpi-hpl reads the full-precision time from this line, so
   * what-ifs that differ by 2-3% are compared with enough digits. */
  int rank = 0;
  MPI_Comm_rank(COMM, &rank);
  if (wall && IBEG == 0 && N == 1 && OPE == HPL_AMAX_PTIME && rank == 0)
    printf("simmpi-hpl: timed wall time %.17g\n", TIMES[0]);
}
