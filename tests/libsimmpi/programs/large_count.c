/* SPDX-License-Identifier: Apache-2.0 */
/* The large-count (_c) functions of MPI-4.1: point-to-point with a message of 2^31 + 8 bytes
 * (in folded memory) and a type of 2^32 bytes, whose counts the _c queries give and the int
 * ones say MPI_UNDEFINED for; constructors with counts above INT_MAX; the _c collectives,
 * neighbourhood collectives, one-sided calls, packing, constructors and user operations with
 * small counts give what their int forms give; a count above INT_MAX where simmpi's
 * implementation holds ints is MPI_ERR_COUNT.
 *   large_count            the checks (any number of ranks)
 *   large_count time int   a sequence of int calls, then "sequence ends at <ps>"
 *   large_count time c     the same sequence through the _c forms: the same simulated time */
#include <limits.h>
#include <simmpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* 2^31 + 8 bytes of MPI_BYTE from rank 0 to rank 1 in folded memory, by MPI_Send_c/MPI_Recv_c
 * and by MPI_Isend_c/MPI_Irecv_c: the status holds all of them. */
static void huge_message(void) {
  const MPI_Count n = (MPI_Count)INT_MAX + 9;
  if (size < 2 || rank > 1) return;
  char* send = simmpi_shared_malloc((size_t)n);
  char* recv = simmpi_shared_malloc((size_t)n);
  MPI_Status st;
  if (rank == 0) {
    CHECK(MPI_Send_c(send, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Send_c");
    MPI_Request r;
    MPI_Isend_c(send, n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    CHECK(MPI_Recv_c(recv, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "MPI_Recv_c");
    MPI_Count count = 0, elements = 0, doubles = 0;
    int small = 0;
    MPI_Get_count_c(&st, MPI_BYTE, &count);
    MPI_Get_elements_c(&st, MPI_BYTE, &elements);
    MPI_Get_count_c(&st, MPI_DOUBLE, &doubles);
    MPI_Get_count(&st, MPI_BYTE, &small);
    CHECK(count == n, "MPI_Get_count_c gave %lld, not %lld", count, n);
    CHECK(elements == n, "MPI_Get_elements_c gave %lld", elements);
    CHECK(doubles == n / 8, "MPI_Get_count_c of MPI_DOUBLE gave %lld, not %lld", doubles, n / 8);
    CHECK(small == MPI_UNDEFINED, "MPI_Get_count gave %d, not MPI_UNDEFINED", small);
    MPI_Request r;
    MPI_Irecv_c(recv, n, MPI_BYTE, 0, 8, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    MPI_Get_count_c(&st, MPI_BYTE, &count);
    CHECK(count == n, "MPI_Irecv_c's status says %lld", count);
  }
  simmpi_shared_free(send);
  simmpi_shared_free(recv);
}

/* A type of 2^32 bytes: sizes and extents in MPI_Count, MPI_UNDEFINED in int. */
static void huge_type(void) {
  MPI_Datatype page, big;
  MPI_Type_contiguous(4096, MPI_BYTE, &page);
  MPI_Type_contiguous_c(1 << 20, page, &big);
  MPI_Type_commit(&big);
  MPI_Count size_c = 0, lb = -1, extent = 0, true_lb = -1, true_extent = 0;
  int size_int = 0;
  MPI_Type_size_c(big, &size_c);
  MPI_Type_size(big, &size_int);
  MPI_Type_get_extent_c(big, &lb, &extent);
  MPI_Type_get_true_extent_c(big, &true_lb, &true_extent);
  CHECK(size_c == (MPI_Count)1 << 32, "MPI_Type_size_c gave %lld", size_c);
  CHECK(size_int == MPI_UNDEFINED, "MPI_Type_size gave %d, not MPI_UNDEFINED", size_int);
  CHECK(lb == 0 && extent == (MPI_Count)1 << 32, "extent [%lld, %lld)", lb, extent);
  CHECK(true_lb == 0 && true_extent == (MPI_Count)1 << 32, "true extent [%lld, %lld)", true_lb,
        true_extent);
  /* A status of 3 x 2^32 bytes: 3 of the type, 3 x 2^32 bytes. */
  MPI_Status st;
  MPI_Status_set_elements_x(&st, MPI_BYTE, (MPI_Count)3 << 32);
  MPI_Count count = 0;
  int small = 0;
  MPI_Get_count_c(&st, big, &count);
  MPI_Get_count(&st, MPI_BYTE, &small);
  CHECK(count == 3, "MPI_Get_count_c of the big type gave %lld", count);
  CHECK(small == MPI_UNDEFINED, "MPI_Get_count of 3 x 2^32 bytes gave %d", small);
  MPI_Type_free(&big);
  MPI_Type_free(&page);
  /* Constructors with counts above INT_MAX: their envelope has large counts, which only the _c
   * queries report. */
  MPI_Datatype wide, strided;
  MPI_Type_contiguous_c((MPI_Count)1 << 33, MPI_BYTE, &wide);
  MPI_Type_size_c(wide, &size_c);
  CHECK(size_c == (MPI_Count)1 << 33, "MPI_Type_contiguous_c of 2^33 bytes: %lld", size_c);
  MPI_Count ni = -1, na = -1, nl = -1, nd = -1, large[1] = {0};
  int combiner = 0, ints_int = 0, cls = 0;
  MPI_Type_get_envelope_c(wide, &ni, &na, &nl, &nd, &combiner);
  CHECK(combiner == MPI_COMBINER_CONTIGUOUS && ni == 0 && na == 0 && nl == 1 && nd == 1,
        "envelope_c of the wide type: %d %lld %lld %lld %lld", combiner, ni, na, nl, nd);
  MPI_Datatype inner = MPI_DATATYPE_NULL;
  MPI_Type_get_contents_c(wide, 0, 0, 1, 1, NULL, NULL, large, &inner);
  CHECK(large[0] == (MPI_Count)1 << 33 && inner == MPI_BYTE, "contents_c %lld", large[0]);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int na_int = 0, nd_int = 0;
  MPI_Error_class(MPI_Type_get_envelope(wide, &ints_int, &na_int, &nd_int, &combiner), &cls);
  CHECK(cls == MPI_ERR_TYPE, "MPI_Type_get_envelope of a large-count type: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_vector_c(2, 1, (MPI_Count)1 << 33, MPI_INT, &strided);
  MPI_Type_get_extent_c(strided, &lb, &extent);
  MPI_Type_size_c(strided, &size_c);
  CHECK(size_c == 8 && extent == ((MPI_Count)1 << 35) + 4, "vector_c of stride 2^33: %lld %lld",
        size_c, extent);
  MPI_Type_free(&wide);
  MPI_Type_free(&strided);
}

/* Counts above INT_MAX where the implementation holds ints: MPI_ERR_COUNT, nothing done. */
static void too_large(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int value = rank, cls = 0;
  int err = MPI_Bcast_c(&value, (MPI_Count)INT_MAX + 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT, "MPI_Bcast_c of 2^31 ints gave class %d", cls);
  MPI_Count* counts = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint* displs = malloc(sizeof(MPI_Aint) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    counts[i] = i == size - 1 ? (MPI_Count)1 << 40 : 1;
    displs[i] = i;
  }
  err = MPI_Allgatherv_c(&value, 1, MPI_INT, NULL, counts, displs, MPI_INT, MPI_COMM_WORLD);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT, "MPI_Allgatherv_c with a count of 2^40 gave class %d", cls);
  MPI_Count packed = -1;
  err = MPI_Pack_size_c((MPI_Count)INT_MAX + 1, MPI_BYTE, MPI_COMM_WORLD, &packed);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT && packed == -1, "MPI_Pack_size_c of 2^31 bytes: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  free(counts);
  free(displs);
}

static MPI_Count seen_len = -1;
static void sum_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
  (void)type;
  seen_len = *len;
  for (MPI_Count i = 0; i < *len; ++i) ((int*)inout)[i] += ((const int*)in)[i];
}

/* The _c collectives give what the int ones give. */
static void collectives(void) {
  int* all = malloc(sizeof(int) * (size_t)size);
  int* all_c = malloc(sizeof(int) * (size_t)size);
  MPI_Count* counts = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint* displs = malloc(sizeof(MPI_Aint) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    counts[i] = 1;
    displs[i] = size - 1 - i; /* reversed */
  }
  int mine = 10 * rank + 1;
  MPI_Allgatherv_c(&mine, 1, MPI_INT, all_c, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; ++i)
    CHECK(all_c[size - 1 - i] == 10 * i + 1, "allgatherv_c[%d]=%d", size - 1 - i,
          all_c[size - 1 - i]);
  int sum = 0, sum_c_ = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce_c(&mine, &sum_c_, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == sum_c_ && sum == 5 * size * (size - 1) + size, "allreduce_c %d, int %d", sum_c_,
        sum);
  MPI_Op op;
  MPI_Op_create_c(sum_c, 1, &op);
  int pair[2] = {rank, 1}, pair_sum[2] = {0, 0};
  MPI_Allreduce_c(pair, pair_sum, 2, MPI_INT, op, MPI_COMM_WORLD);
  CHECK(pair_sum[0] == size * (size - 1) / 2 && pair_sum[1] == size, "user op_c gave %d %d",
        pair_sum[0], pair_sum[1]);
  MPI_Count longest = -1; /* only the ranks that combine operands call the function */
  MPI_Allreduce(&seen_len, &longest, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(size == 1 || longest == 2, "the MPI_Count length was %lld", longest);
  MPI_Op_free(&op);
  /* Gatherv_c at the last rank; the others' arrays are not significant (NULL). */
  const int root = size - 1;
  MPI_Gatherv_c(&mine, 1, MPI_INT, all, rank == root ? counts : NULL, rank == root ? displs : NULL,
                MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int i = 0; i < size; ++i) CHECK(all[size - 1 - i] == 10 * i + 1, "gatherv_c");
  /* Ialltoallv_c: the arrays may go before the wait. */
  MPI_Count* c2 = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint* d2 = malloc(sizeof(MPI_Aint) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    c2[i] = 1;
    d2[i] = i;
    all[i] = 100 * rank + i;
  }
  MPI_Request r;
  MPI_Ialltoallv_c(all, c2, d2, MPI_INT, all_c, c2, d2, MPI_INT, MPI_COMM_WORLD, &r);
  free(c2);
  free(d2);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (int i = 0; i < size; ++i)
    CHECK(all_c[i] == 100 * i + rank, "ialltoallv_c[%d]=%d", i, all_c[i]);
  /* Reduce_scatter_c: one int each. */
  for (int i = 0; i < size; ++i) all[i] = i + rank;
  int mine_sum = 0;
  MPI_Reduce_scatter_c(all, &mine_sum, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(mine_sum == size * rank + size * (size - 1) / 2, "reduce_scatter_c gave %d", mine_sum);
  free(all);
  free(all_c);
  free(counts);
  free(displs);
}

/* A neighbourhood collective on a periodic ring: left and right neighbours' ranks. */
static void neighbors(void) {
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int out[2] = {rank, rank}, in[2] = {-1, -1};
  MPI_Count counts[2] = {1, 1};
  MPI_Aint displs[2] = {0, 1};
  MPI_Neighbor_alltoallv_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, ring);
  CHECK(in[0] == (rank + size - 1) % size && in[1] == (rank + 1) % size,
        "neighbor_alltoallv_c gave %d %d", in[0], in[1]);
  MPI_Comm_free(&ring);
}

/* MPI_Put_c and MPI_Get_c through a fence epoch; MPI_Win_create_c's MPI_Aint disp_unit. */
static void one_sided(void) {
  int cell = -1, got = -1;
  MPI_Win win;
  MPI_Win_create_c(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put_c(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get_c(&got, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK(cell == (rank + size - 1) % size, "put_c left %d", cell);
  CHECK(got == rank, "get_c read %d", got);
  MPI_Win_free(&win);
}

/* Packing, constructors and envelopes through the _c forms. */
static void datatypes(void) {
  double v[6] = {1, 2, 3, 4, 5, 6}, back[6] = {0};
  MPI_Datatype every_other;
  MPI_Type_vector_c(3, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Count packed_size = 0, position = 0;
  MPI_Pack_size_c(1, every_other, MPI_COMM_WORLD, &packed_size);
  CHECK(packed_size == 24, "MPI_Pack_size_c gave %lld", packed_size);
  char buf[64];
  MPI_Pack_c(v, 1, every_other, buf, sizeof buf, &position, MPI_COMM_WORLD);
  CHECK(position == 24, "MPI_Pack_c advanced to %lld", position);
  position = 0;
  MPI_Unpack_c(buf, 24, &position, back, 1, every_other, MPI_COMM_WORLD);
  CHECK(back[0] == 1 && back[2] == 3 && back[4] == 5 && back[1] == 0, "MPI_Unpack_c");
  MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
  int combiner = 0;
  MPI_Type_get_envelope_c(every_other, &ni, &na, &nl, &nd, &combiner);
  CHECK(combiner == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nl == 0 && nd == 1,
        "envelope_c %d: %lld %lld %lld %lld", combiner, ni, na, nl, nd);
  int ints[3];
  MPI_Datatype types[1];
  MPI_Type_get_contents_c(every_other, 3, 0, 0, 1, ints, NULL, NULL, types);
  CHECK(ints[0] == 3 && ints[1] == 1 && ints[2] == 2 && types[0] == MPI_DOUBLE, "contents_c");
  MPI_Type_free(&every_other);
  MPI_Count lens[2] = {1, 2}, disps[2] = {0, 8};
  MPI_Datatype types2[2] = {MPI_INT, MPI_FLOAT}, s;
  MPI_Type_create_struct_c(2, lens, disps, types2, &s);
  MPI_Count ssize = 0;
  MPI_Type_size_c(s, &ssize);
  CHECK(ssize == 12, "struct_c size %lld", ssize);
  MPI_Type_free(&s);
}

/* The other point-to-point _c forms between neighbours on a ring. */
static void point_to_point(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int got = -1;
  MPI_Sendrecv_c(&rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  CHECK(got == left, "sendrecv_c got %d", got);
  int token = rank;
  MPI_Sendrecv_replace_c(&token, 1, MPI_INT, right, 2, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(token == left, "sendrecv_replace_c got %d", token);
  MPI_Request rs[2];
  MPI_Recv_init_c(&got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &rs[0]);
  MPI_Send_init_c(&rank, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &rs[1]);
  MPI_Startall(2, rs);
  MPI_Waitall(2, rs, MPI_STATUSES_IGNORE);
  MPI_Request_free(&rs[0]);
  MPI_Request_free(&rs[1]);
  CHECK(got == left, "persistent _c got %d", got);
  int bsize = 64 + MPI_BSEND_OVERHEAD;
  void* attached = malloc((size_t)bsize);
  MPI_Buffer_attach_c(attached, bsize);
  MPI_Bsend_c(&rank, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
  MPI_Message msg;
  MPI_Status st;
  MPI_Mprobe(left, 4, MPI_COMM_WORLD, &msg, &st);
  MPI_Mrecv_c(&got, 1, MPI_INT, &msg, &st);
  CHECK(got == left, "mrecv_c got %d", got);
  void* detached = NULL;
  MPI_Count detached_size = 0;
  MPI_Buffer_detach_c(&detached, &detached_size);
  CHECK(detached == attached && detached_size == bsize, "buffer_detach_c %lld", detached_size);
  free(attached);
  MPI_Request r;
  MPI_Isendrecv_c(&rank, 1, MPI_INT, right, 5, &got, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(got == left, "isendrecv_c got %d", got);
}

/* One sequence of calls, through the int or the _c forms; the simulated time it ends at. */
static void timed_sequence(int large) {
  const int n = 1 << 16;
  double* a = calloc((size_t)n, sizeof(double));
  double* b = calloc((size_t)n, sizeof(double));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int round = 0; round < 3; ++round) {
    if (large) {
      MPI_Sendrecv_c(a, n, MPI_DOUBLE, right, 0, b, n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
      MPI_Allreduce_c(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Bcast_c(a, n / 4, MPI_DOUBLE, round % size, MPI_COMM_WORLD);
    } else {
      MPI_Sendrecv(a, n, MPI_DOUBLE, right, 0, b, n, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Bcast(a, n / 4, MPI_DOUBLE, round % size, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("sequence ends at %.0f ps\n", MPI_Wtime() * 1e12);
  free(a);
  free(b);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 2 && strcmp(argv[1], "time") == 0) {
    timed_sequence(strcmp(argv[2], "c") == 0);
    return finish("large_count");
  }
  huge_message();
  huge_type();
  too_large();
  collectives();
  neighbors();
  one_sided();
  datatypes();
  point_to_point();
  return finish("large_count");
}
