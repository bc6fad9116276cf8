// SPDX-License-Identifier: Apache-2.0
// The libraries' state per rank:
//  - at start, the libraries loaded with the program are added to the privatized regions;
//  - dlopen loads the library, then privatizes it at once: the image its constructors left is
//    every rank's starting copy. Privatized libraries are never unloaded (RTLD_NODELETE): a
//    rank may still use its copy after another rank's dlclose;
//  - __cxa_thread_atexit_impl (C++ thread_local destructors) from a rank's code registers the
//    destructor with the rank, which runs it when it ends, on its own thread-local copy.
#include "libsimmpi/launch/library_privatization.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/fiber_threads.hpp"
#include "libsimmpi/launch/rank_life.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "runtime/privatize/program_image.hpp"

namespace simmpi::mpi {
namespace {

constinit RealFunction<void* (*)(const char*, int)> real_dlopen{"dlopen"};
constinit RealFunction<int (*)(void (*)(void*), void*, void*)> real_thread_atexit{
    "__cxa_thread_atexit_impl"};

runtime::LibraryRule g_rule;
bool g_libraries_captured = false;

void add_libraries(std::vector<runtime::PrivateRegion>* added) {
  std::vector<std::string> warnings;
  auto regions = runtime::ProgramImage::instance().add_libraries(g_rule, warnings);
  for (const std::string& w : warnings) std::fprintf(stderr, "simmpi: warning: %s\n", w.c_str());
  if (added) *added = std::move(regions);
}

// A string of `object`'s dynamic section (DT_RUNPATH, DT_RPATH), empty when it has none.
std::string dynamic_string(const link_map* object, ElfW(Sxword) tag) {
  const char* strtab = nullptr;
  ElfW(Xword) offset = 0;
  bool found = false;
  for (const ElfW(Dyn)* d = object->l_ld; d && d->d_tag != DT_NULL; ++d) {
    // The loader has rebased the dynamic section's addresses in place on this architecture;
    // an address below the load base would still be a link-time one.
    if (d->d_tag == DT_STRTAB)
      strtab = reinterpret_cast<const char*>(
          d->d_un.d_ptr < object->l_addr ? d->d_un.d_ptr + object->l_addr : d->d_un.d_ptr);
    if (d->d_tag == tag) offset = d->d_un.d_val, found = true;
  }
  return found && strtab ? std::string(strtab + offset) : std::string();
}

std::string origin_of(const link_map* object) {
  std::string path = object->l_name && object->l_name[0] ? object->l_name : "/proc/self/exe";
  char real[4096];
  ssize_t n = path == "/proc/self/exe" ? readlink(path.c_str(), real, sizeof real - 1) : -1;
  if (n > 0) path.assign(real, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

// Appends the directories of a search path (colon-separated, $ORIGIN expanded) to `dirs`.
void append_dirs(const std::string& list, const link_map* object, std::vector<std::string>& dirs) {
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t colon = list.find(':', at);
    if (colon == std::string::npos) colon = list.size();
    std::string d = list.substr(at, colon - at);
    for (const char* o : {"${ORIGIN}", "$ORIGIN"})
      for (std::size_t p; (p = d.find(o)) != std::string::npos;)
        d.replace(p, std::strlen(o), origin_of(object));
    if (!d.empty()) dirs.push_back(d);
    at = colon + 1;
  }
}

// The loader resolves a bare library name with the search path of the object that called
// dlopen, which, through this interposer, would be libsimmpi's. Resolve it with the caller's
// (its DT_RPATH and the executable's when it has no DT_RUNPATH, LD_LIBRARY_PATH, its
// DT_RUNPATH), as the loader would; the system directories and the loader's cache come after
// those and are the same for every caller, so an unresolved name is left to the loader.
std::string resolve(const char* file, const void* caller) {
  if (!file || std::strchr(file, '/')) return file ? file : "";
  Dl_info info{};
  link_map* object = nullptr;
  if (!dladdr1(caller, &info, reinterpret_cast<void**>(&object), RTLD_DL_LINKMAP) || !object)
    return file;
  std::vector<std::string> dirs;
  const std::string runpath = dynamic_string(object, DT_RUNPATH);
  if (runpath.empty()) {
    append_dirs(dynamic_string(object, DT_RPATH), object, dirs);
    link_map* exe = object;
    while (exe->l_prev) exe = exe->l_prev;
    if (exe != object) append_dirs(dynamic_string(exe, DT_RPATH), exe, dirs);
  }
  if (const char* env = std::getenv("LD_LIBRARY_PATH")) append_dirs(env, object, dirs);
  append_dirs(runpath, object, dirs);
  for (const std::string& d : dirs) {
    std::string path = d + "/" + file;
    if (access(path.c_str(), R_OK) == 0) return path;
  }
  return file;
}

}  // namespace

void capture_program_libraries(const std::string& spec) {
  g_rule = runtime::LibraryRule(spec);
  add_libraries(nullptr);
  g_libraries_captured = true;
}

}  // namespace simmpi::mpi

using namespace simmpi;

extern "C" {

__attribute__((visibility("default"))) void* dlopen(const char* file, int flags) {
  runtime::Scheduler* s = runtime::Scheduler::instance();
  if (!mpi::g_libraries_captured || !s || !s->privatizer().is_private())
    return mpi::real_dlopen(file, flags);
  const std::string path = mpi::resolve(file, __builtin_return_address(0));
  void* handle = mpi::real_dlopen(file ? path.c_str() : nullptr, flags | RTLD_NODELETE);
  // From another thread, the libraries wait for the next dlopen on the simulation's thread:
  // their thread-local blocks must be that thread's.
  if (handle && mpi::on_simulation_thread()) {
    std::vector<runtime::PrivateRegion> added;
    mpi::add_libraries(&added);
    s->privatizer().add_regions(std::move(added));
  }
  return handle;
}

__attribute__((visibility("default"))) int __cxa_thread_atexit_impl(void (*fn)(void*), void* obj,
                                                                    void* dso) noexcept {
  const int rank = mpi::program_rank();
  if (rank >= 0 && runtime::ProgramImage::instance().is_private_dso(dso) &&
      runtime::Scheduler::instance()->privatizer().is_private()) {
    mpi::RankLives::instance()->add_thread_exit_handler(rank, fn, obj);
    return 0;
  }
  return mpi::real_thread_atexit(fn, obj, dso);
}

}  // extern "C"
