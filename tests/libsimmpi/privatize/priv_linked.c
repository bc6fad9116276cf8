/* SPDX-License-Identifier: Apache-2.0 */
/* A shared library the test program links (-lpriv_linked): data its constructor sets, a static
 * counter, thread-local variables (initialized and not). Reached only through functions, so
 * its state stays in the library (no copy relocation into the program). */
static int hidden = 5;
static int from_constructor;
static __thread int tls = 11;
static _Thread_local long tls_zero;

__attribute__((constructor)) static void set_up(void) {
  from_constructor = 42;
}

int* linked_hidden(void) {
  return &hidden;
}
int linked_from_constructor(void) {
  return from_constructor;
}
int* linked_tls(void) {
  return &tls;
}
long* linked_tls_zero(void) {
  return &tls_zero;
}
int linked_bump(void) {
  ++tls_zero;
  return ++hidden;
}
