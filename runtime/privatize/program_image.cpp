// SPDX-License-Identifier: Apache-2.0
// Finds the executable's writable data through the program headers (dl_iterate_phdr) and its
// copy relocations through the dynamic section.
#include "runtime/privatize/program_image.hpp"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

struct MainProgram {
  ElfW(Addr) base = 0;
  const ElfW(Phdr) * phdr = nullptr;
  ElfW(Half) phnum = 0;
};

int first_object(dl_phdr_info* info, std::size_t, void* out) {
  auto* m = static_cast<MainProgram*>(out);
  m->base = info->dlpi_addr;
  m->phdr = info->dlpi_phdr;
  m->phnum = info->dlpi_phnum;
  return 1;  // the main program is always reported first
}

// Dynamic-section pointers are link-time addresses in a position-independent executable;
// some loaders rebase them in place. Either way, the result is an address in memory.
template <class T>
T* rebase(ElfW(Addr) base, ElfW(Addr) value) {
  return reinterpret_cast<T*>(value < base ? value + base : value);
}

std::vector<ByteRange> find_copy_relocations(ElfW(Addr) base, const ElfW(Dyn) * dyn) {
  const ElfW(Rela)* rela = nullptr;
  std::size_t rela_bytes = 0;
  const ElfW(Sym)* symtab = nullptr;
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    if (dyn->d_tag == DT_RELA) rela = rebase<const ElfW(Rela)>(base, dyn->d_un.d_ptr);
    if (dyn->d_tag == DT_RELASZ) rela_bytes = dyn->d_un.d_val;
    if (dyn->d_tag == DT_SYMTAB) symtab = rebase<const ElfW(Sym)>(base, dyn->d_un.d_ptr);
  }
  std::vector<ByteRange> out;
  if (!rela || !symtab) return out;
  for (std::size_t i = 0; i < rela_bytes / sizeof(ElfW(Rela)); ++i) {
    if (ELF64_R_TYPE(rela[i].r_info) != R_X86_64_COPY) continue;
    const ElfW(Sym)& sym = symtab[ELF64_R_SYM(rela[i].r_info)];
    char* p = reinterpret_cast<char*>(base + rela[i].r_offset);
    out.push_back({p, p + sym.st_size});
  }
  return out;
}

}  // namespace

ProgramImage& ProgramImage::instance() {
  static ProgramImage image;
  return image;
}

void ProgramImage::capture(const ProgramHooks& hooks) {
  hooks_ = hooks;
  MainProgram m;
  dl_iterate_phdr(first_object, &m);
  ElfW(Addr) load_begin = 0, load_end = 0, relro_end = 0;
  const ElfW(Dyn)* dynamic = nullptr;
  for (ElfW(Half) i = 0; i < m.phnum; ++i) {
    const ElfW(Phdr)& ph = m.phdr[i];
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) {
      SIMMPI_ASSERT(load_end == 0, "the executable has more than one writable segment");
      load_begin = m.base + ph.p_vaddr;
      load_end = load_begin + ph.p_memsz;
    }
    if (ph.p_type == PT_GNU_RELRO) relro_end = m.base + ph.p_vaddr + ph.p_memsz;
    if (ph.p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(m.base + ph.p_vaddr);
  }
  SIMMPI_ASSERT(load_end != 0, "the executable has no writable segment");
  // The loader makes RELRO read-only after relocating; privatizing it would be both useless
  // (it is the same for every rank) and impossible (writes fault).
  ElfW(Addr) begin = std::max(load_begin, std::min(relro_end, load_end));
  writable_ = {reinterpret_cast<char*>(begin), reinterpret_cast<char*>(load_end)};
  pristine_.assign(writable_.begin, writable_.end);
  if (dynamic) copy_relocs_ = find_copy_relocations(m.base, dynamic);
  captured_ = true;
}

void ProgramImage::run_constructors(int argc, char** argv, char** envp) const {
  if (!captured_) return;
  for (InitFunction* f = hooks_.init_begin; f != hooks_.init_end; ++f) (*f)(argc, argv, envp);
}

}  // namespace simmpi::runtime
