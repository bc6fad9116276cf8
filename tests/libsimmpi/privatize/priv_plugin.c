/* SPDX-License-Identifier: Apache-2.0 */
/* A shared library the test program dlopens: data its constructor changes, a thread-local. */
static int state = 7;
static __thread int tls = 3;

__attribute__((constructor)) static void set_up(void) {
  state += 92; /* 99 */
}

int* plugin_state(void) {
  return &state;
}
int* plugin_tls(void) {
  return &tls;
}
