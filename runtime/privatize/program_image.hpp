// SPDX-License-Identifier: Apache-2.0
// What privatization needs to know about the application's executable: where its writable
// data (.data and .bss) lies, its constructors, and a copy of that data as the loader left it,
// before any constructor ran. Captured by the start hook (libsimmpi/launch/start_hook.c) that
// simmpicc links into every program.
#pragma once

#include <cstddef>
#include <vector>

namespace simmpi::runtime {

struct ByteRange {
  char* begin = nullptr;
  char* end = nullptr;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
  bool contains(const void* p) const {
    return static_cast<const char*>(p) >= begin && static_cast<const char*>(p) < end;
  }
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

  // The writable, non-RELRO part of the executable's data segment.
  ByteRange writable() const { return writable_; }
  // Variables the executable holds for shared libraries (copy relocations: stdout, optind,
  // std::cout...). A fresh rank copies these from the process's live values, not the pristine
  // ones, since the libraries initialized them before main.
  const std::vector<ByteRange>& copy_relocations() const { return copy_relocs_; }
  // The writable bytes as they were before any constructor ran.
  const std::vector<char>& pristine() const { return pristine_; }
  void* dso_handle() const { return hooks_.dso_handle; }

  // Runs the executable's init array: each rank constructs its own C++ globals.
  void run_constructors(int argc, char** argv, char** envp) const;

 private:
  bool captured_ = false;
  ProgramHooks hooks_{};
  ByteRange writable_;
  std::vector<ByteRange> copy_relocs_;
  std::vector<char> pristine_;
};

}  // namespace simmpi::runtime
