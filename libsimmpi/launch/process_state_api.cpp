// SPDX-License-Identifier: Apache-2.0
// simmpi_process_state: named blocks shared by every rank of the run. The ranks are fibers of
// one process whose globals are privatized, so a model that wants to see across ranks (a cache
// of a computation every rank repeats) needs memory outside the program's data segment; this
// library's own data is outside it.
#include <simmpi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "runtime/core/error.hpp"

namespace {

struct Block {
  std::size_t bytes;
  std::unique_ptr<unsigned char[]> data;
};

std::map<std::string, Block>& blocks() {
  static std::map<std::string, Block> all;
  return all;
}

}  // namespace

extern "C" {

void* simmpi_process_state(const char* name, size_t bytes) {
  if (!name || bytes == 0)
    simmpi::fatal(1, "simmpi_process_state: needs a name and a size above 0");
  auto [it, fresh] = blocks().try_emplace(name);
  if (fresh) {
    it->second.bytes = bytes;
    it->second.data = std::make_unique<unsigned char[]>(bytes);  // zeroed
  } else if (it->second.bytes != bytes) {
    simmpi::fatal(1, simmpi::strprintf("simmpi_process_state: \"%s\" has %zu bytes, asked for %zu",
                                       name, it->second.bytes, bytes));
  }
  return it->second.data.get();
}

}  // extern "C"
