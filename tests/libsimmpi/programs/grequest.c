/* SPDX-License-Identifier: Apache-2.0 */
/* Generalized requests (MPI-3.1 12.2) and the status setters (12.3): the query callback's status
 * is what MPI_Wait returns, the free callback runs exactly once (at completion of the wait, or at
 * MPI_Grequest_complete after an early MPI_Request_free), and MPI_Cancel calls the cancel
 * callback with whether the request had completed. */
#include "check.h"

struct State {
  int queried, freed, cancelled, cancel_saw_complete;
};

static int query(void* extra, MPI_Status* st) {
  struct State* s = extra;
  s->queried++;
  st->MPI_SOURCE = 3;
  st->MPI_TAG = 17;
  st->MPI_ERROR = MPI_SUCCESS;
  MPI_Status_set_elements(st, MPI_INT, 5);
  MPI_Status_set_cancelled(st, 0);
  return MPI_SUCCESS;
}

static int release(void* extra) {
  ((struct State*)extra)->freed++;
  return MPI_SUCCESS;
}

static int cancel(void* extra, int complete) {
  struct State* s = extra;
  s->cancelled++;
  s->cancel_saw_complete = complete;
  return MPI_SUCCESS;
}

static void waited(void) {
  struct State s = {0, 0, 0, -1};
  MPI_Request r;
  MPI_Status st;
  int flag = -1, count = -1;
  MPI_Grequest_start(query, release, cancel, &s, &r);
  MPI_Test(&r, &flag, &st);
  CHECK(flag == 0 && s.queried == 0, "before MPI_Grequest_complete: flag %d", flag);
  MPI_Cancel(&r);
  CHECK(s.cancelled == 1 && s.cancel_saw_complete == 0, "cancel_fn: %d calls, complete=%d",
        s.cancelled, s.cancel_saw_complete);
  MPI_Grequest_complete(r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(r == MPI_REQUEST_NULL && st.MPI_SOURCE == 3 && st.MPI_TAG == 17 && count == 5,
        "status from query_fn: source %d tag %d count %d, expected 3 17 5", st.MPI_SOURCE,
        st.MPI_TAG, count);
  CHECK(s.queried == 1 && s.freed == 1, "query_fn ran %d times, free_fn %d, expected 1 and 1",
        s.queried, s.freed);
}

static void freed_early(void) {
  struct State s = {0, 0, 0, -1};
  MPI_Request r, keep;
  MPI_Grequest_start(query, release, cancel, &s, &r);
  keep = r;
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL && s.freed == 0, "free_fn must wait for MPI_Grequest_complete");
  MPI_Grequest_complete(keep);
  CHECK(s.freed == 1 && s.queried == 0, "after complete: free_fn %d, query_fn %d, expected 1, 0",
        s.freed, s.queried);
}

/* Elements of a derived type: 3 basic ints in a status of pairs of ints are 1.5 pairs. */
static void set_elements(void) {
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Status st;
  int count = 0, elements = 0;
  MPI_Status_set_elements(&st, pair, 3);
  MPI_Get_count(&st, pair, &count);
  MPI_Get_elements(&st, pair, &elements);
  CHECK(count == MPI_UNDEFINED && elements == 3, "3 ints as pairs: count %d elements %d", count,
        elements);
  MPI_Count big = 0;
  MPI_Status_set_elements_x(&st, pair, 4);
  MPI_Get_count(&st, pair, &count);
  MPI_Get_elements_x(&st, MPI_INT, &big);
  CHECK(count == 2 && big == 4, "4 ints: %d pairs, %lld ints, expected 2 and 4", count,
        (long long)big);
  int flag = -1;
  MPI_Status_set_cancelled(&st, 1);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1, "MPI_Status_set_cancelled(1) then MPI_Test_cancelled: %d", flag);
  MPI_Type_free(&pair);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  waited();
  freed_early();
  set_elements();
  return finish("grequest");
}
