/* SPDX-License-Identifier: Apache-2.0 */
/* Error handlers and error codes: a user handler sees the communicator and the code, and the
 * failed call returns the code; new communicators inherit the handler; MPI_Comm_call_errhandler;
 * MPI_Add_error_class/code/string with MPI_Error_string/class and MPI_LASTUSEDCODE. */
#include <string.h>

#include "check.h"

static int rank, size;
static int calls, last_code;
static MPI_Comm last_comm;

static void record(MPI_Comm* comm, int* code, ...) {
  ++calls;
  last_code = *code;
  last_comm = *comm;
  int r; /* a handler may call MPI */
  MPI_Comm_rank(*comm, &r);
  CHECK(r == rank || *comm != MPI_COMM_WORLD, "rank inside the handler");
}

static void user_handler(void) {
  MPI_Errhandler h, got, old_style;
  MPI_Comm d, dd;
  MPI_Comm_create_errhandler(record, &h);
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  MPI_Comm_set_errhandler(d, h);
  int v = 0;
  int err = MPI_Send(&v, 1, MPI_INT, size + 5, 0, d);
  CHECK(err == MPI_ERR_RANK && calls == 1 && last_code == MPI_ERR_RANK && last_comm == d,
        "send to a bad rank: err %d, %d calls, code %d", err, calls, last_code);
  /* A dup inherits the handler. */
  MPI_Comm_dup(d, &dd);
  err = MPI_Recv(&v, -1, MPI_INT, 0, 0, dd, MPI_STATUS_IGNORE);
  CHECK(err == MPI_ERR_COUNT && calls == 2 && last_comm == dd,
        "inherited handler: err %d, %d calls", err, calls);
  MPI_Comm_get_errhandler(dd, &got);
  CHECK(got == h, "get_errhandler gave 0x%x, expected 0x%x", got, h);
  MPI_Errhandler_free(&got);
  CHECK(got == MPI_ERRHANDLER_NULL, "Errhandler_free leaves MPI_ERRHANDLER_NULL");
  /* The program raises its own error through the handler; the call itself succeeds. */
  err = MPI_Comm_call_errhandler(d, MPI_ERR_OTHER);
  CHECK(err == MPI_SUCCESS && calls == 3 && last_code == MPI_ERR_OTHER,
        "call_errhandler: %d, %d calls", err, calls);
  /* The handler outlives MPI_Errhandler_free while a communicator uses it. */
  MPI_Errhandler_free(&h);
  MPI_Errhandler_create(record, &old_style);
  MPI_Errhandler_set(MPI_COMM_WORLD, old_style);
  err = MPI_Comm_call_errhandler(dd, MPI_ERR_ARG);
  CHECK(calls == 4 && last_code == MPI_ERR_ARG, "handler after free: %d calls", calls);
  err = MPI_Bcast(&v, 1, MPI_INT, -4, MPI_COMM_WORLD);
  CHECK(err == MPI_ERR_ROOT && calls == 5 && last_comm == MPI_COMM_WORLD, "world handler: err %d",
        err);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&old_style);
  err = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
  CHECK(err == MPI_SUCCESS && calls == 5, "MPI_ERRORS_RETURN handler: %d", err);
  MPI_Comm_free(&dd);
  MPI_Comm_free(&d);
}

static void error_codes(void) {
  int cls, code, result, len, *last, flag;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Add_error_class(&cls);
  MPI_Add_error_code(cls, &code);
  CHECK(cls > MPI_ERR_LASTCODE && code == cls + 1, "class %d code %d", cls, code);
  MPI_Add_error_string(code, "the flux capacitor failed");
  MPI_Error_string(code, text, &len);
  CHECK(!strcmp(text, "the flux capacitor failed") && len == 25, "error string \"%s\"", text);
  MPI_Error_class(code, &result);
  CHECK(result == cls, "class of the new code is %d, expected %d", result, cls);
  MPI_Error_class(MPI_ERR_RANK, &result);
  CHECK(result == MPI_ERR_RANK, "class of MPI_ERR_RANK is %d", result);
  MPI_Error_string(MPI_ERR_COMM, text, &len);
  CHECK(!strncmp(text, "MPI_ERR_COMM", 12), "MPI_ERR_COMM reads \"%s\"", text);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
  CHECK(flag && *last == code, "MPI_LASTUSEDCODE %d, expected %d", flag ? *last : -1, code);
  MPI_Add_error_code(MPI_ERR_TOPOLOGY, &code); /* predefined classes take codes too */
  MPI_Error_class(code, &result);
  CHECK(result == MPI_ERR_TOPOLOGY, "class of a code in MPI_ERR_TOPOLOGY is %d", result);
  int err = MPI_Add_error_string(MPI_ERR_COMM, "mine"); /* MPI_ERRORS_RETURN from here */
  CHECK(err == MPI_ERR_ARG, "a string for a predefined code returned %d", err);
}

/* MPI_Comm_get_info, once left out, returns the hints in use: none. */
static void comm_info(void) {
  MPI_Info info;
  int nkeys = -1;
  CHECK(MPI_Comm_get_info(MPI_COMM_WORLD, &info) == MPI_SUCCESS, "MPI_Comm_get_info");
  MPI_Info_get_nkeys(info, &nkeys);
  CHECK(nkeys == 0, "MPI_Comm_get_info: %d keys, expected 0", nkeys);
  MPI_Info_free(&info);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  user_handler();
  error_codes();
  comm_info();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  return finish("errhandlers");
}
