// SPDX-License-Identifier: Apache-2.0
// Corner rules of MPI-3.1 that programs and test suites rely on (issue 19's defects), each
// checked against what native MPICH gives: a reduce-scatter of zero counts; single-status
// calls leave status.MPI_ERROR alone; names of predefined datatypes (MPI_C_COMPLEX, and set by
// the program); MPI_Comm_create with disjoint groups; deleting an attribute whose keyval was
// freed; a reduction with a user operation on a resized vector type; a gather with MPI_IN_PLACE
// at the root and empty NULL buffers elsewhere; a nonblocking broadcast whose datatype is freed
// before the wait; MPI_COMM_SELF's attributes deleted last set, first at MPI_Finalize.
// (MPICH 4.0.2 itself sets MPI_ERROR in MPI_Mprobe when a rank probes its own message at 1
// rank; the standard does not, and neither does simmpi.)
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int fails = 0;
#define CHECK(c, what)                          \
  do {                                          \
    if (!(c)) {                                 \
      printf("rank %d: FAIL %s\n", rank, what); \
      fails++;                                  \
    }                                           \
  } while (0)
static int order[8], norder = 0;
static int del_fn(MPI_Comm c, int k, void* v, void* e) {
  order[norder++] = (int)(long)v;
  return MPI_SUCCESS;
}
static void myop(void* in, void* inout, int* len, MPI_Datatype* t) {
  int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; i++) {
    b[2 * i] += a[2 * i];
  }
}
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* 1 reduce_scatter all zero */
  int* counts = calloc(size, sizeof(int));
  int sb = 0, rb = 0;
  MPI_Reduce_scatter(&sb, &rb, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  /* 2 status.MPI_ERROR unchanged by Recv */
  MPI_Status st;
  st.MPI_ERROR = 12345;
  int v = rank;
  MPI_Sendrecv(&v, 1, MPI_INT, rank, 0, &rb, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &st);
  st.MPI_ERROR = 12345;
  MPI_Request rq;
  MPI_Isend(&v, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &rq);
  MPI_Recv(&rb, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &st);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  CHECK(st.MPI_ERROR == 12345, "Recv overwrote status.MPI_ERROR");
  MPI_Message m;
  MPI_Isend(&v, 1, MPI_INT, rank, 2, MPI_COMM_WORLD, &rq);
  st.MPI_ERROR = 12345;
  MPI_Mprobe(rank, 2, MPI_COMM_WORLD, &m, &st);
  CHECK(st.MPI_ERROR == 12345, "Mprobe overwrote status.MPI_ERROR");
  st.MPI_ERROR = 12345;
  MPI_Mrecv(&rb, 1, MPI_INT, &m, &st);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  CHECK(st.MPI_ERROR == 12345, "Mrecv overwrote status.MPI_ERROR");
  /* 3 names */
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Type_get_name(MPI_C_COMPLEX, name, &len);
  CHECK(strcmp(name, "MPI_C_COMPLEX") == 0, "MPI_C_COMPLEX name");
  int e = MPI_Type_set_name(MPI_INT, "myint");
  MPI_Type_get_name(MPI_INT, name, &len);
  CHECK(e == MPI_SUCCESS && strcmp(name, "myint") == 0, "set_name on predefined");
  /* MPI-4.1 7.8: the null handles have names too. */
  MPI_Comm_get_name(MPI_COMM_NULL, name, &len);
  CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == 13, "MPI_COMM_NULL name");
  MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len);
  CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0, "MPI_DATATYPE_NULL name");
  MPI_Win_get_name(MPI_WIN_NULL, name, &len);
  CHECK(strcmp(name, "MPI_WIN_NULL") == 0, "MPI_WIN_NULL name");
  /* 4 comm_create disjoint groups */
  MPI_Group wg, g;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  int half = rank % 2;
  int mem[64], n = 0;
  for (int i = half; i < size; i += 2) mem[n++] = i;
  MPI_Group_incl(wg, n, mem, &g);
  MPI_Comm nc;
  e = MPI_Comm_create(MPI_COMM_WORLD, g, &nc);
  CHECK(e == MPI_SUCCESS && nc != MPI_COMM_NULL, "Comm_create with disjoint groups");
  if (nc != MPI_COMM_NULL) {
    int s2;
    MPI_Comm_size(nc, &s2);
    CHECK(s2 == n, "disjoint comm size");
    MPI_Comm_free(&nc);
  }
  /* 5 attribute freed keyval delete */
  int kv;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_attr(dup, kv, (void*)1L);
  int kv_copy = kv;
  MPI_Comm_free_keyval(&kv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  CHECK(MPI_Comm_delete_attr(dup, kv_copy) == MPI_SUCCESS, "delete_attr with a freed keyval");
  MPI_Comm_free(&dup);
  /* 6 reduce user op on resized vector */
  MPI_Datatype vec, rs;
  MPI_Type_vector(1, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, 2 * sizeof(int), &rs);
  MPI_Type_commit(&rs);
  MPI_Op op;
  MPI_Op_create(myop, 1, &op);
  int in[8] = {1, 0, 1, 0, 1, 0, 1, 0}, out[8] = {0};
  MPI_Reduce(in, out, 4, rs, op, 0, MPI_COMM_WORLD);
  if (rank == 0) CHECK(out[0] == size && out[6] == size, "Reduce user op on resized vector");
  /* 7 gather in place, zero from NULL */
  int gb[64] = {0};
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, 0, MPI_INT, gb, 0, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
  /* 8 ibcast with type freed before wait */
  MPI_Datatype c2;
  MPI_Type_contiguous(2, MPI_INT, &c2);
  MPI_Type_commit(&c2);
  int bb[4] = {0};
  if (rank == 0) {
    bb[0] = 7;
    bb[1] = 8;
    bb[2] = 9;
    bb[3] = 10;
  }
  MPI_Ibcast(bb, 2, c2, 0, MPI_COMM_WORLD, &rq);
  MPI_Type_free(&c2);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  CHECK(bb[0] == 7 && bb[3] == 10, "Ibcast with freed datatype");
  /* 9 self attrs LIFO at finalize */
  int k1, k2, k3;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &k1, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &k2, NULL);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &k3, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void*)1L);
  MPI_Comm_set_attr(MPI_COMM_SELF, k3, (void*)2L);
  MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void*)3L);
  int total = 0;
  MPI_Reduce(&fails, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  if (norder != 3 || order[0] != 3 || order[1] != 2 || order[2] != 1) {
    printf("rank %d: MPI_COMM_SELF's attributes deleted in order %d %d %d (want 3 2 1)\n", rank,
           order[0], order[1], order[2]);
    total++;
  }
  if (rank == 0) printf("corner rules: %d failures at %d ranks\n", total, size);
  return 0;
}
