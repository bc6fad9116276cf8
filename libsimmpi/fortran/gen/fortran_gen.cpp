// SPDX-License-Identifier: Apache-2.0
// simmpi_fortran_gen: writes the Fortran bindings, mpif.h and the mpi module from mpi.h and
// bindings.tbl (see fortran_gen.hpp).
//   simmpi_fortran_gen MPI_H TABLE BINDINGS_CPP MPIF_H MPI_F90 MPI_F08_F90
//   simmpi_fortran_gen --check MPI_H TABLE     fails when a function of mpi.h is not in the table
#include "libsimmpi/fortran/gen/fortran_gen.hpp"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

using namespace simmpi::mpi::fortran;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw GenError(path + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw GenError(path + ": cannot be written");
}

const CPrototype* find(const std::vector<CPrototype>& protos, const std::string& name) {
  for (const CPrototype& p : protos)
    if (p.name == name) return &p;
  return nullptr;
}

// The bindings of the table's lines, in the table's order; `unlisted` gets the functions of
// mpi.h the table does not mention.
std::vector<Binding> bindings(const std::vector<CPrototype>& protos,
                              const std::vector<TableEntry>& table,
                              std::vector<std::string>* unlisted) {
  std::vector<Binding> out;
  std::set<std::string> listed;
  for (const TableEntry& e : table) {
    const CPrototype* p = find(protos, e.name);
    if (!p)
      throw GenError("bindings.tbl:" + std::to_string(e.line) + ": mpi.h declares no " + e.name);
    if (!listed.insert(e.name).second)
      throw GenError("bindings.tbl:" + std::to_string(e.line) + ": " + e.name + " is listed twice");
    if (!e.c_only && !e.unbound) out.push_back(derive_binding(*p, e));
  }
  for (const CPrototype& p : protos)
    if (!listed.count(p.name)) unlisted->push_back(p.name);
  // mpi_f08's large-count forms: each `_c` function whose int form is bound by the rules.
  std::vector<Binding> large;
  for (const Binding& b : out) {
    const CPrototype* c = find(protos, b.proto.name + "_c");
    if (c && !b.custom && f08_excluded(b).empty()) {
      TableEntry none;
      none.name = c->name;
      large.push_back(derive_binding(*c, none));
      large.back().f08_only = true;
    }
  }
  out.insert(out.end(), large.begin(), large.end());
  return out;
}

int run(int argc, char** argv) {
  bool check = argc == 4 && std::string(argv[1]) == "--check";
  if (!check && argc != 7) {
    std::fprintf(stderr,
                 "usage: simmpi_fortran_gen MPI_H TABLE BINDINGS_CPP MPIF_H MPI_F90 MPI_F08_F90\n"
                 "       simmpi_fortran_gen --check MPI_H TABLE\n");
    return 2;
  }
  int a = check ? 2 : 1;
  std::vector<CPrototype> protos = parse_prototypes(read_file(argv[a]));
  std::vector<std::string> unlisted;
  std::vector<Binding> b = bindings(protos, parse_table(read_file(argv[a + 1])), &unlisted);
  for (const std::string& name : unlisted)
    std::fprintf(stderr,
                 "simmpi_fortran_gen: warning: %s (mpi.h) has no line in bindings.tbl, so no "
                 "Fortran binding: add its name there (or \"%s c_only\")\n",
                 name.c_str(), name.c_str());
  if (check) {
    std::size_t f08 = 0, large = 0;
    for (const Binding& x : b) {
      large += x.f08_only;
      f08 += !x.f08_only && f08_excluded(x).empty();
    }
    std::printf(
        "%zu functions in mpi.h, %zu Fortran bindings (%zu in mpi_f08, with %zu "
        "large-count forms there), %zu not in the table\n",
        protos.size(), b.size() - large, f08, large, unlisted.size());
    for (const Binding& x : b)
      if (!x.f08_only && !f08_excluded(x).empty())
        std::printf("not in mpi_f08: %s: %s\n", x.proto.name.c_str(), f08_excluded(x).c_str());
    return unlisted.empty() ? 0 : 1;
  }
  std::vector<Constant> constants = mpi_h_constants();
  write_file(argv[3], write_cpp_bindings(b));
  write_file(argv[4], write_mpif_h(constants, b));
  write_file(argv[5], write_mpi_module(constants, b));
  write_file(argv[6], write_mpi_f08_module(constants, b));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const GenError& e) {
    std::fprintf(stderr, "simmpi_fortran_gen: error: %s\n", e.what());
    return 1;
  }
}
