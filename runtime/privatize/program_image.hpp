// SPDX-License-Identifier: Apache-2.0
// What privatization needs to know about the program's state: the byte ranges each rank must
// have its own copy of (the executable's writable data, the writable data of the shared
// libraries the program brings, the thread-local blocks of both), what a rank starts with in
// each, and the executable's constructors. The executable is captured by the start hook
// (libsimmpi/launch/start_hook.c) that simmpicc links into every program, before any of its
// constructors ran; the libraries when the simulation starts or when the program dlopens them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/privatize/library_rule.hpp"

namespace simmpi::runtime {

struct ByteRange {
  char* begin = nullptr;
  char* end = nullptr;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
  bool contains(const void* p) const {
    return static_cast<const char*>(p) >= begin && static_cast<const char*>(p) < end;
  }
};

// One range of the program's state that every rank sees at the same address, one copy live at
// a time.
struct PrivateRegion {
  ByteRange live;
  // What each rank starts with: the executable's data before its constructors (each rank runs
  // them), a library's data after its constructors (they ran once, when it was loaded), a
  // thread-local block as the simulation's thread has it.
  std::vector<char> fresh;
  // A thread-local block shares its pages with the C library's own thread data (errno, malloc's
  // cache), so it is always switched by copying, never by remapping pages.
  bool is_thread_local = false;
  std::string module;  // the file it belongs to, for messages
};

using InitFunction = void (*)(int, char**, char**);

// The executable's init array (its constructors; the loader has already run its preinit array
// before the start hook, so the pristine image includes that) and its __dso_handle, which tags
// the atexit registrations its code makes.
struct ProgramHooks {
  InitFunction* init_begin;
  InitFunction* init_end;
  void* dso_handle;
};

class ProgramImage {
 public:
  // The image of the running executable; captured() is false in a process that was not
  // started through the start hook (unit tests), where there is nothing to privatize.
  static ProgramImage& instance();

  // Called once, after relocation and before the executable's constructors run.
  void capture(const ProgramHooks& hooks);
  bool captured() const { return captured_; }

  // Finds the shared libraries loaded since the last call (all of them the first time) and
  // adds the state of those `rule` privatizes. Returns the regions added, and appends to
  // `warnings` one line per library whose state stays shared although it should not (named
  // by the rule but not privatizable, or holding heap memory its constructors allocated).
  // Must run on the thread that runs the ranks: thread-local blocks are that thread's.
  std::vector<PrivateRegion> add_libraries(const LibraryRule& rule,
                                           std::vector<std::string>& warnings);

  // Every region: the executable's data (with the variables it holds for libraries, its copy
  // relocations, as the live process has them now: stdout, optind, std::cout...), its
  // thread-local block, then the libraries' regions added so far.
  std::vector<PrivateRegion> regions() const;

  // The executable's writable, non-RELRO data.
  ByteRange writable() const { return writable_; }
  void* dso_handle() const { return hooks_.dso_handle; }
  // True for the __dso_handle of the executable or of a privatized library: exit handlers and
  // thread-local destructors registered with it belong to the calling rank.
  bool is_private_dso(const void* dso) const;
  // The file names of the privatized libraries, in load order.
  std::vector<std::string> private_libraries() const;

  // Runs the executable's init array: each rank constructs its own C++ globals.
  void run_constructors(int argc, char** argv, char** envp) const;

 private:
  struct Module {
    std::string path;
    char* base;
    ByteRange span;  // all its loaded segments
    bool is_private;
  };

  bool captured_ = false;
  ProgramHooks hooks_{};
  ByteRange writable_;
  std::vector<ByteRange> copy_relocs_;
  std::vector<char> pristine_;
  std::vector<PrivateRegion> tls_and_libraries_;
  std::vector<Module> modules_;  // every module seen by add_libraries
};

}  // namespace simmpi::runtime
