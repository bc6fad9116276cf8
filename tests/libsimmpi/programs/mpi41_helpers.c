/* SPDX-License-Identifier: Apache-2.0 */
/* MPI-4.1's small additions, each with values that a wrong implementation would miss: the status
 * accessors, MPI_Request_get_status_any/all/some (which must not complete what they look at),
 * MPI_Status_set_elements_c, removing error classes, codes and strings in the order the standard
 * asks, MPI_Info_create_env, MPI_Get_hw_resource_info, MPI_Type_get_value_index, the hardware-
 * and resource-guided splits, and the communicator and session buffers of buffered sends
 * (attached, automatic, flushed, detached). Run at several rank counts and ranks per node. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void check_status_fields(void) {
  MPI_Status st;
  int v = -1;
  MPI_Status_set_source(&st, 5);
  MPI_Status_set_tag(&st, 77);
  MPI_Status_set_error(&st, MPI_ERR_TAG);
  CHECK(st.MPI_SOURCE == 5 && st.MPI_TAG == 77 && st.MPI_ERROR == MPI_ERR_TAG,
        "fields %d %d %d after the setters", st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
  MPI_Status_get_source(&st, &v);
  CHECK(v == 5, "get_source %d", v);
  MPI_Status_get_tag(&st, &v);
  CHECK(v == 77, "get_tag %d", v);
  MPI_Status_get_error(&st, &v);
  CHECK(v == MPI_ERR_TAG, "get_error %d", v);
  int count = -1;
  MPI_Count big = -1;
  MPI_Status_set_elements_c(&st, MPI_INT, 10);
  MPI_Get_count(&st, MPI_INT, &count);
  MPI_Get_count_c(&st, MPI_DOUBLE, &big);
  CHECK(count == 10 && big == 5, "set_elements_c 10 ints: %d ints, %lld doubles", count, big);
  CHECK(MPI_Status_set_tag(MPI_STATUS_IGNORE, 1) == MPI_ERR_ARG, "MPI_STATUS_IGNORE accepted");
}

/* A receive from the left that the left sends only after a barrier: before it, nothing is
 * complete; after, get_status_* see it complete and leave it for MPI_Wait. */
static void check_request_status(void) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size, got = -1, flag = -1, index = -2;
  int outcount = -2, indices[2];
  MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status sts[2], st;
  MPI_Irecv(&got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[0]);
  MPI_Request_get_status_all(2, reqs, &flag, sts);
  CHECK(flag == 0, "get_status_all says complete before the send");
  MPI_Request_get_status_any(2, reqs, &index, &flag, &st);
  CHECK(flag == 0 && index == MPI_UNDEFINED, "get_status_any before the send: flag %d index %d",
        flag, index);
  MPI_Request_get_status_some(2, reqs, &outcount, indices, sts);
  CHECK(outcount == 0, "get_status_some before the send: outcount %d", outcount);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(&rank, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
  flag = 0;
  for (int polls = 0; !flag && polls < 1000000; ++polls)
    MPI_Request_get_status_any(2, reqs, &index, &flag, &st);
  CHECK(flag == 1 && index == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 7,
        "get_status_any after the send: flag %d index %d source %d tag %d", flag, index,
        st.MPI_SOURCE, st.MPI_TAG);
  CHECK(reqs[0] != MPI_REQUEST_NULL, "get_status_any freed the request");
  MPI_Request_get_status_some(2, reqs, &outcount, indices, sts);
  CHECK(outcount == 1 && indices[0] == 0 && sts[0].MPI_SOURCE == left,
        "get_status_some: outcount %d index %d", outcount, indices[0]);
  sts[1].MPI_SOURCE = 99;
  MPI_Request_get_status_all(2, reqs, &flag, sts);
  CHECK(flag == 1 && sts[0].MPI_TAG == 7 && sts[1].MPI_SOURCE == MPI_ANY_SOURCE,
        "get_status_all: flag %d tag %d null's source %d", flag, sts[0].MPI_TAG, sts[1].MPI_SOURCE);
  MPI_Wait(&reqs[0], &st);
  CHECK(got == left && st.MPI_SOURCE == left, "received %d from %d, expected %d", got,
        st.MPI_SOURCE, left);
  MPI_Request_get_status_some(2, reqs, &outcount, indices, sts);
  CHECK(outcount == MPI_UNDEFINED, "get_status_some on null requests: %d", outcount);
  MPI_Request_get_status_any(2, reqs, &index, &flag, MPI_STATUS_IGNORE);
  CHECK(flag == 1 && index == MPI_UNDEFINED, "get_status_any on null requests: %d %d", flag, index);
}

static void check_error_removal(void) {
  int cls, code, c = -1;
  MPI_Add_error_class(&cls);
  MPI_Add_error_code(cls, &code);
  MPI_Add_error_string(code, "a code of the test");
  CHECK(MPI_Remove_error_class(cls) == MPI_ERR_ARG, "a class with a code was removed");
  CHECK(MPI_Remove_error_code(code) == MPI_ERR_ARG, "a code with a string was removed");
  CHECK(MPI_Remove_error_string(code) == MPI_SUCCESS, "the string was not removed");
  CHECK(MPI_Remove_error_string(code) == MPI_ERR_ARG, "the string was removed twice");
  CHECK(MPI_Remove_error_code(code) == MPI_SUCCESS, "the code was not removed");
  CHECK(MPI_Error_class(code, &c) != MPI_SUCCESS, "a removed code still has class %d", c);
  CHECK(MPI_Remove_error_class(cls) == MPI_SUCCESS, "the class was not removed");
  CHECK(MPI_Remove_error_class(cls) == MPI_ERR_ARG, "the class was removed twice");
  CHECK(MPI_Remove_error_class(MPI_ERR_ARG) == MPI_ERR_ARG, "a predefined class was removed");
}

static void info_value(MPI_Info info, const char* key, char* value) {
  int flag = 0;
  value[0] = '\0';
  MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
}

static void check_info_and_hardware(int argc, char** argv, int node_size) {
  MPI_Info env, hw;
  char v[MPI_MAX_INFO_VAL + 1];
  MPI_Info_create_env(argc, argv, &env);
  info_value(env, "command", v);
  CHECK(strcmp(v, argv[0]) == 0, "command \"%s\", expected \"%s\"", v, argv[0]);
  info_value(env, "maxprocs", v);
  CHECK(atoi(v) == size, "maxprocs %s, expected %d", v, size);
  MPI_Info_free(&env);
  MPI_Get_hw_resource_info(&hw);
  info_value(hw, "mpi_hw_resource_type", v);
  CHECK(strcmp(v, "mpi_shared_memory") == 0, "mpi_hw_resource_type \"%s\"", v);
  info_value(hw, "simmpi_ranks_on_node", v);
  CHECK(atoi(v) == node_size, "simmpi_ranks_on_node %s, expected %d", v, node_size);
  MPI_Info_free(&hw);
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair);
  CHECK(pair == MPI_DOUBLE_INT, "double, int is not MPI_DOUBLE_INT");
  MPI_Type_get_value_index(MPI_INT, MPI_INT, &pair);
  CHECK(pair == MPI_2INT, "int, int is not MPI_2INT");
  MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &pair);
  CHECK(pair == MPI_DATATYPE_NULL, "char, int has a pair type");
}

/* The size of the communicator a split of `type` with info key=value gives, 0 for none. */
static int split_size(int type, const char* key, const char* value) {
  MPI_Info info = MPI_INFO_NULL;
  MPI_Comm c;
  int n = 0;
  if (key) {
    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
  }
  MPI_Comm_split_type(MPI_COMM_WORLD, type, rank, info, &c);
  if (c != MPI_COMM_NULL) {
    MPI_Comm_size(c, &n);
    MPI_Comm_free(&c);
  }
  if (key) MPI_Info_free(&info);
  return n;
}

static void check_splits(int node_size) {
  int n = split_size(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "mpi_shared_memory");
  CHECK(n == node_size, "hw-guided shared memory: %d ranks, expected %d", n, node_size);
  n = split_size(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "no_such_level");
  CHECK(n == 0, "hw-guided unknown level: %d ranks, expected MPI_COMM_NULL", n);
  n = split_size(MPI_COMM_TYPE_HW_UNGUIDED, NULL, NULL);
  int expected = node_size < size ? node_size : 0;
  CHECK(n == expected, "hw-unguided: %d ranks, expected %d", n, expected);
  /* An unguided split that made a communicator names its level in the caller's info. */
  MPI_Info asked;
  MPI_Info_create(&asked);
  MPI_Comm c;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, rank, asked, &c);
  char level[64] = "";
  int found = 0;
  MPI_Info_get(asked, "mpi_hw_resource_type", sizeof level - 1, level, &found);
  CHECK(c != MPI_COMM_NULL ? found && strcmp(level, "mpi_shared_memory") == 0 : !found,
        "hw-unguided info: found %d, level \"%s\"", found, level);
  if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  MPI_Info_free(&asked);
  n = split_size(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://WORLD");
  CHECK(n == size, "resource-guided mpi://WORLD: %d ranks", n);
  n = split_size(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://SELF");
  CHECK(n == 1, "resource-guided mpi://SELF: %d ranks", n);
}

/* Each rank sends its right neighbour `k` buffered messages on `comm`; returns the sum received
 * of the values rank*100 + i. */
static void bsend_ring(MPI_Comm comm, int k, int bytes) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  char* out = calloc((size_t)bytes, 1);
  char* in = calloc((size_t)bytes, 1);
  for (int i = 0; i < k; ++i) {
    out[0] = (char)(rank + i);
    int err = MPI_Bsend(out, bytes, MPI_BYTE, right, i, comm);
    CHECK(err == MPI_SUCCESS, "buffered send %d of %d bytes failed: %d", i, bytes, err);
  }
  for (int i = 0; i < k; ++i) {
    MPI_Recv(in, bytes, MPI_BYTE, left, i, comm, MPI_STATUS_IGNORE);
    CHECK(in[0] == (char)(left + i), "message %d from %d: %d", i, left, in[0]);
  }
  free(out);
  free(in);
}

static void check_buffers(void) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int bytes = 1000, room = 2 * (1000 + MPI_BSEND_OVERHEAD), size_out = -1;
  char* buf = malloc((size_t)room);
  void* addr = NULL;
  MPI_Comm_attach_buffer(comm, buf, room);
  CHECK(MPI_Comm_attach_buffer(comm, buf, room) == MPI_ERR_BUFFER, "attached twice");
  bsend_ring(comm, 2, bytes); /* no process buffer: only the communicator's can take them */
  char one = 1;
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int err = MPI_Bsend(&one, 1, MPI_BYTE, right, 9, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_BUFFER, "MPI_COMM_WORLD used the communicator's buffer: %d", err);
  MPI_Comm_flush_buffer(comm);
  MPI_Request flushed;
  MPI_Comm_iflush_buffer(comm, &flushed);
  MPI_Wait(&flushed, MPI_STATUS_IGNORE);
  MPI_Comm_detach_buffer(comm, &addr, &size_out);
  CHECK(addr == buf && size_out == room, "detached %p of %d, attached %p of %d", addr, size_out,
        (void*)buf, room);
  MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0);
  bsend_ring(comm, 3, 1 << 20); /* far beyond any room given: the automatic buffer grows */
  MPI_Request f2;
  MPI_Buffer_iflush(&f2); /* no process buffer: complete at once */
  int done = 0;
  MPI_Test(&f2, &done, MPI_STATUS_IGNORE);
  CHECK(done, "iflush of no buffer is not complete");
  MPI_Comm_detach_buffer(comm, &addr, &size_out);
  CHECK(addr == MPI_BUFFER_AUTOMATIC && size_out == 0, "automatic detach gave %p, %d", addr,
        size_out);
  (void)left;
  MPI_Comm_free(&comm);
  free(buf);
}

static void check_session_buffer(void) {
  MPI_Session s;
  MPI_Group g;
  MPI_Comm comm;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
  MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
  MPI_Comm_create_from_group(g, "mpi41_helpers", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
  int room = 3 * (64 + MPI_BSEND_OVERHEAD), size_out = -1;
  char* buf = malloc((size_t)room);
  void* addr = NULL;
  MPI_Session_attach_buffer(s, buf, room);
  bsend_ring(comm, 3, 64); /* the session's buffer, through the communicator made from it */
  MPI_Request flushed;
  MPI_Session_iflush_buffer(s, &flushed);
  MPI_Wait(&flushed, MPI_STATUS_IGNORE);
  MPI_Session_flush_buffer(s);
  MPI_Session_detach_buffer(s, &addr, &size_out);
  CHECK(addr == buf && size_out == room, "session detach gave %p, %d", addr, size_out);
  char one = 1;
  int err = MPI_Bsend(&one, 1, MPI_BYTE, (rank + 1) % size, 0, comm);
  CHECK(err == MPI_ERR_BUFFER, "a buffered send with every buffer detached: %d", err);
  MPI_Comm_free(&comm);
  MPI_Group_free(&g);
  MPI_Session_finalize(&s);
  free(buf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm node;
  int node_size;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  check_status_fields();
  check_request_status();
  check_error_removal();
  check_info_and_hardware(argc, argv, node_size);
  check_splits(node_size);
  check_buffers();
  check_session_buffer();
  return finish("mpi41_helpers");
}
