// SPDX-License-Identifier: Apache-2.0
// Finds the program's state through the program headers (dl_iterate_phdr): the writable
// segments and thread-local blocks of the executable and of the libraries the rule privatizes,
// and the executable's copy relocations through its dynamic section.
#include "runtime/privatize/program_image.hpp"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "runtime/core/error.hpp"

// The loader's lookup of a module's thread-local block for the calling thread, allocating it
// if this thread has not used it yet (a library dlopened after the thread started).
struct TlsIndex {
  unsigned long module;
  unsigned long offset;
};
extern "C" void* __tls_get_addr(TlsIndex*);

namespace simmpi::runtime {
namespace {

// What dl_iterate_phdr reports of one loaded module.
struct LoadedModule {
  std::string path;
  ElfW(Addr) base = 0;
  const ElfW(Phdr) * phdr = nullptr;
  ElfW(Half) phnum = 0;
  std::size_t tls_modid = 0;
  void* tls_data = nullptr;
};

int note_module(dl_phdr_info* info, std::size_t, void* out) {
  auto* list = static_cast<std::vector<LoadedModule>*>(out);
  list->push_back({info->dlpi_name ? info->dlpi_name : "", info->dlpi_addr, info->dlpi_phdr,
                   info->dlpi_phnum, info->dlpi_tls_modid, info->dlpi_tls_data});
  return 0;
}

// Every loaded module, the executable first. Collected first and examined after:
// dl_iterate_phdr holds the loader's lock.
std::vector<LoadedModule> loaded_modules() {
  std::vector<LoadedModule> list;
  dl_iterate_phdr(note_module, &list);
  return list;
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

ElfW(Addr) relro_end(const LoadedModule& m) {
  for (ElfW(Half) i = 0; i < m.phnum; ++i)
    if (m.phdr[i].p_type == PT_GNU_RELRO) return m.base + m.phdr[i].p_vaddr + m.phdr[i].p_memsz;
  return 0;
}

// The module's writable segments without their RELRO part: the loader makes RELRO read-only
// after relocating, so privatizing it would be both useless (it is the same for every rank)
// and impossible (writes fault).
std::vector<ByteRange> writable_segments(const LoadedModule& m) {
  std::vector<ByteRange> out;
  const ElfW(Addr) relro = relro_end(m);
  for (ElfW(Half) i = 0; i < m.phnum; ++i) {
    const ElfW(Phdr)& ph = m.phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W) || ph.p_memsz == 0) continue;
    const ElfW(Addr) begin = m.base + ph.p_vaddr, end = begin + ph.p_memsz;
    const ElfW(Addr) from = std::max(begin, std::min(relro, end));
    if (from < end) out.push_back({reinterpret_cast<char*>(from), reinterpret_cast<char*>(end)});
  }
  return out;
}

ByteRange loaded_span(const LoadedModule& m) {
  ElfW(Addr) lo = ~ElfW(Addr){0}, hi = 0;
  for (ElfW(Half) i = 0; i < m.phnum; ++i) {
    if (m.phdr[i].p_type != PT_LOAD) continue;
    lo = std::min(lo, m.base + m.phdr[i].p_vaddr);
    hi = std::max(hi, m.base + m.phdr[i].p_vaddr + m.phdr[i].p_memsz);
  }
  return hi ? ByteRange{reinterpret_cast<char*>(lo), reinterpret_cast<char*>(hi)} : ByteRange{};
}

// The calling thread's instance of the module's thread-local block, as a region starting from
// its present content. None when the module has no PT_TLS.
bool thread_local_region(const LoadedModule& m, PrivateRegion& out) {
  if (m.tls_modid == 0) return false;
  for (ElfW(Half) i = 0; i < m.phnum; ++i) {
    if (m.phdr[i].p_type != PT_TLS || m.phdr[i].p_memsz == 0) continue;
    void* block = m.tls_data;
    if (!block) {
      TlsIndex index{m.tls_modid, 0};
      block = __tls_get_addr(&index);
    }
    out.live = {static_cast<char*>(block), static_cast<char*>(block) + m.phdr[i].p_memsz};
    out.fresh.assign(out.live.begin, out.live.end);
    out.is_thread_local = true;
    out.module = m.path.empty() ? "the executable" : m.path;
    return true;
  }
  return false;
}

// The process's brk heap (/proc/self/maps' [heap] line): what a library's constructors
// allocated with malloc lies there.
ByteRange brk_heap() {
  ByteRange heap;
  if (FILE* maps = std::fopen("/proc/self/maps", "re")) {
    char line[512];
    while (std::fgets(line, sizeof line, maps)) {
      std::uintptr_t lo = 0, hi = 0;
      if (std::strstr(line, "[heap]") &&
          std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2) {
        heap = {reinterpret_cast<char*>(lo), reinterpret_cast<char*>(hi)};
        break;
      }
    }
    std::fclose(maps);
  }
  return heap;
}

// How many aligned words of `image` point into `heap`: a constructor's heap allocation the
// ranks would share, since only the pointer to it is privatized.
std::size_t heap_pointers(const std::vector<char>& image, const ByteRange& heap) {
  std::size_t n = 0;
  for (std::size_t at = 0; at + sizeof(void*) <= image.size(); at += sizeof(void*)) {
    void* p;
    std::memcpy(&p, image.data() + at, sizeof p);
    if (heap.contains(p)) ++n;
  }
  return n;
}

}  // namespace

ProgramImage& ProgramImage::instance() {
  static ProgramImage image;
  return image;
}

void ProgramImage::capture(const ProgramHooks& hooks) {
  hooks_ = hooks;
  std::vector<LoadedModule> all = loaded_modules();
  const LoadedModule& m = all.front();  // the main program is always reported first
  std::vector<ByteRange> writable = writable_segments(m);
  SIMMPI_ASSERT(writable.size() <= 1, "the executable has %zu writable segments, not one",
                writable.size());
  if (!writable.empty()) writable_ = writable.front();
  pristine_.assign(writable_.begin, writable_.end);
  for (ElfW(Half) i = 0; i < m.phnum; ++i)
    if (m.phdr[i].p_type == PT_DYNAMIC)
      copy_relocs_ = find_copy_relocations(
          m.base, reinterpret_cast<const ElfW(Dyn)*>(m.base + m.phdr[i].p_vaddr));
  PrivateRegion tls;
  if (thread_local_region(m, tls)) tls_and_libraries_.push_back(std::move(tls));
  modules_.push_back({"", reinterpret_cast<char*>(m.base), loaded_span(m), true});
  captured_ = true;
}

std::vector<PrivateRegion> ProgramImage::add_libraries(const LibraryRule& rule,
                                                       std::vector<std::string>& warnings) {
  std::vector<PrivateRegion> added;
  ByteRange heap;
  bool heap_known = false;
  for (const LoadedModule& m : loaded_modules()) {
    const bool seen = std::any_of(modules_.begin(), modules_.end(), [&](const Module& k) {
      return k.base == reinterpret_cast<char*>(m.base) && k.path == m.path;
    });
    if (seen || m.path.empty()) continue;
    std::string why;
    const LibraryRule::Verdict v = rule.classify(m.path, why);
    const bool is_private = v == LibraryRule::Verdict::Private;
    modules_.push_back({m.path, reinterpret_cast<char*>(m.base), loaded_span(m), is_private});
    if (v == LibraryRule::Verdict::Refused)
      warnings.push_back(m.path + ": its state is shared by all ranks: " + why);
    if (!is_private) continue;
    for (const ByteRange& seg : writable_segments(m)) {
      PrivateRegion r{seg, std::vector<char>(seg.begin, seg.end), false, m.path};
      if (!heap_known) heap = brk_heap(), heap_known = true;
      if (std::size_t n = heap_pointers(r.fresh, heap))
        warnings.push_back(strprintf(
            "%s: its data holds %zu pointer%s to heap memory allocated when it was loaded "
            "(by its constructors): each rank has its own copy of the pointers, but all ranks "
            "share the memory they point to",
            m.path.c_str(), n, n == 1 ? "" : "s"));
      added.push_back(std::move(r));
    }
    PrivateRegion tls;
    if (thread_local_region(m, tls)) added.push_back(std::move(tls));
  }
  tls_and_libraries_.insert(tls_and_libraries_.end(), added.begin(), added.end());
  return added;
}

std::vector<PrivateRegion> ProgramImage::regions() const {
  std::vector<PrivateRegion> out;
  if (!captured_) return out;
  PrivateRegion data{writable_, pristine_, false, "the executable"};
  // A fresh rank takes the variables the executable holds for libraries (copy relocations)
  // from the process's live values, not the pristine ones: the libraries initialized them.
  for (const ByteRange& r : copy_relocs_) {
    if (r.begin < writable_.begin || r.end > writable_.end) continue;
    std::memcpy(data.fresh.data() + (r.begin - writable_.begin), r.begin, r.size());
  }
  out.push_back(std::move(data));
  out.insert(out.end(), tls_and_libraries_.begin(), tls_and_libraries_.end());
  return out;
}

bool ProgramImage::is_private_dso(const void* dso) const {
  if (dso == hooks_.dso_handle) return captured_;
  for (const Module& m : modules_)
    if (m.is_private && !m.path.empty() && m.span.contains(dso)) return true;
  return false;
}

std::vector<std::string> ProgramImage::private_libraries() const {
  std::vector<std::string> out;
  for (const Module& m : modules_)
    if (m.is_private && !m.path.empty()) out.push_back(m.path);
  return out;
}

void ProgramImage::run_constructors(int argc, char** argv, char** envp) const {
  if (!captured_) return;
  for (InitFunction* f = hooks_.init_begin; f != hooks_.init_end; ++f) (*f)(argc, argv, envp);
}

}  // namespace simmpi::runtime
