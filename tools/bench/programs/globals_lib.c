/* SPDX-License-Identifier: Apache-2.0 */
/* One of spine_bench's three privatized shared libraries: 4 KiB of writable data, built as
 * libglobals_NAME.so with -DNAME=NAME. */
#define CAT(a, b) a##b
#define GETTER(n) CAT(globals_, n)
static char library_globals[4096] = {1}; /* in .data: its pages are really there */

char* GETTER(NAME)(void) {
  return library_globals;
}
