// SPDX-License-Identifier: Apache-2.0
// gfortran's runtime keeps one copy of the command line for the whole process: a Fortran main
// program hands it argv (_gfortran_set_args) when it starts, that is once per rank, each with
// the rank's own argv, which ends with the rank. Later reads (GET_COMMAND_ARGUMENT) by ranks
// still running would see freed memory; so the runtime is given one copy that lives as long as
// the process. Every rank's command line is the same, so which rank's is copied does not matter.
#include <dlfcn.h>

#include <string>
#include <vector>

namespace {

struct KeptArgs {
  std::vector<std::string> text;
  std::vector<char*> pointers;
};

KeptArgs& kept_args(int argc, char** argv) {
  static KeptArgs kept;
  if (kept.pointers.empty()) {
    kept.text.assign(argv, argv + argc);
    for (std::string& s : kept.text) kept.pointers.push_back(s.data());
    kept.pointers.push_back(nullptr);
  }
  return kept;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void _gfortran_set_args(int argc, char** argv) {
  using SetArgs = void (*)(int, char**);
  auto real = reinterpret_cast<SetArgs>(dlsym(RTLD_NEXT, "_gfortran_set_args"));
  KeptArgs& kept = kept_args(argc, argv);
  if (real) real(static_cast<int>(kept.text.size()), kept.pointers.data());
}
