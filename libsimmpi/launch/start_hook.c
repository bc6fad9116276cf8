/* SPDX-License-Identifier: Apache-2.0 */
/* Linked into every program built by simmpicc (libsimmpi_start.a). It takes over the C
 * library's start routine so that libsimmpi runs instead of the program's main, without
 * renaming main: the program's own main is handed over and later run once per rank.
 *
 * It captures the program's data segment before the program's constructors run, so each rank
 * can start from that pristine image and construct its own globals. This file is part of the
 * executable, so it must have no writable data of its own: that data would be privatized. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

typedef int (*simmpi_main_fn)(int, char**, char**);
typedef void (*simmpi_init_fn)(int, char**, char**);
typedef void* (*simmpi_malloc_fn)(size_t);
typedef int (*libc_start_fn)(simmpi_main_fn, int, char**, void (*)(void), void (*)(void),
                             void (*)(void), void*);

/* Provided by the linker for this executable. */
extern simmpi_init_fn __init_array_start[] __attribute__((visibility("hidden")));
extern simmpi_init_fn __init_array_end[] __attribute__((visibility("hidden")));
extern void* __dso_handle __attribute__((visibility("hidden")));

/* Provided by libsimmpi.so. */
void simmpi_program_loaded(simmpi_main_fn user_main, simmpi_init_fn* init_begin,
                           simmpi_init_fn* init_end, void* dso_handle,
                           simmpi_malloc_fn program_malloc);
int simmpi_main(int argc, char** argv, char** envp);

/* Given to the C library as the program's (legacy-convention) initializer, in place of the
 * program's constructors: those run once per rank, on the rank's own globals, and never on the
 * process's. */
static void no_global_constructors(void) {}

int __libc_start_main(simmpi_main_fn main, int argc, char** argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void* stack_end) {
  (void)init;
  /* `malloc` here is what the program's own calls reach: libsimmpi's __wrap_malloc when the
   * program was linked with -Wl,--wrap=malloc, the C library's otherwise. */
  simmpi_program_loaded(main, __init_array_start, __init_array_end, &__dso_handle, malloc);
  libc_start_fn real = (libc_start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
  return real(simmpi_main, argc, argv, no_global_constructors, fini, rtld_fini, stack_end);
}
