// SPDX-License-Identifier: Apache-2.0
#include "libsimmpi/launch/install_prefix.hpp"

#include <dlfcn.h>

#include <filesystem>

namespace simmpi::mpi {

std::string install_prefix() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&install_prefix), &info) || !info.dli_fname) return "";
  return std::filesystem::path(info.dli_fname).parent_path().parent_path().string();
}

}  // namespace simmpi::mpi
