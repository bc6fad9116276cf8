/* SPDX-License-Identifier: Apache-2.0 */
/* A library whose constructor keeps heap memory: only the pointer is in its data, so the ranks
 * would share what it points to. simmpi names it at load with a warning. */
#include <stdlib.h>

static int* table;

__attribute__((constructor)) static void set_up(void) {
  table = calloc(64, sizeof *table);
}

int* heap_table(void) {
  return table;
}
