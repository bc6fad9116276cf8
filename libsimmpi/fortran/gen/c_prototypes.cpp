// SPDX-License-Identifier: Apache-2.0
// Reads the function prototypes of mpi.h and the lines of bindings.tbl.
#include <cctype>
#include <regex>
#include <sstream>

#include "libsimmpi/fortran/gen/fortran_gen.hpp"

namespace simmpi::mpi::fortran {
namespace {

// mpi.h without comments and preprocessor lines, so that what is left is C declarations.
std::string strip_comments(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "/*") == 0) {
      std::size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 1;
    } else if (text.compare(i, 2, "//") == 0 ||
               (text[i] == '#' && (i == 0 || text[i - 1] == '\n'))) {
      while (i < text.size() && text[i] != '\n') {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;  // a continued macro line
        ++i;
      }
      out += '\n';
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string squeeze(const std::string& s) {
  std::string out = std::regex_replace(s, std::regex(R"(\s+)"), " ");
  out = std::regex_replace(out, std::regex(R"(^ | $)"), "");
  return out;
}

CParam parse_param(const std::string& text, const std::string& function) {
  static const std::regex kParam(
      R"(^(const )?([A-Za-z_][A-Za-z0-9_]*) ?(\**) ?([A-Za-z_][A-Za-z0-9_]*)(\[\]\[3\]|\[\])?$)");
  std::smatch m;
  std::string s = squeeze(text);
  if (!std::regex_match(s, m, kParam))
    throw GenError(function + ": cannot read the parameter \"" + s + "\"");
  CParam p;
  p.is_const = m[1].matched;
  p.type = m[2];
  p.pointers = static_cast<int>(m[3].length());
  p.name = m[4];
  p.extents = !m[5].matched ? 0 : m[5].length() == 2 ? 1 : 2;
  p.decl = std::string(p.is_const ? "const " : "") + p.type + std::string(m[3]) + " " + p.name +
           std::string(m[5]);
  return p;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(part);
  return parts;
}

}  // namespace

std::vector<CPrototype> parse_prototypes(const std::string& header_text) {
  static const std::regex kPrototype(
      R"(^([A-Za-z_][A-Za-z0-9_]*) ?(\*?) ?(MPI_[A-Za-z0-9_]+) ?\((.*)\)$)");
  std::vector<CPrototype> out;
  for (const std::string& statement : split(strip_comments(header_text), ';')) {
    std::string s = squeeze(statement);
    std::smatch m;
    if (s.rfind("typedef", 0) == 0 || !std::regex_match(s, m, kPrototype)) continue;
    if (m[2].length() > 0)
      throw GenError(std::string(m[3]) + ": functions returning pointers have no Fortran form");
    CPrototype p{m[1], m[3], {}};
    std::string params = squeeze(m[4]);
    if (params != "void")
      for (const std::string& param : split(params, ','))
        // C's variadic tail (MPI_Pcontrol's) has no Fortran counterpart: the binding passes none.
        if (squeeze(param) != "...") p.params.push_back(parse_param(param, p.name));
    out.push_back(std::move(p));
  }
  return out;
}

// A line is: NAME [custom | c_only | unbound] [PARAM=TYPE]...   ('#' starts a comment)
std::vector<TableEntry> parse_table(const std::string& table_text) {
  std::vector<TableEntry> out;
  std::vector<std::string> lines = split(table_text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = squeeze(lines[i].substr(0, lines[i].find('#')));
    if (line.empty()) continue;
    TableEntry e;
    e.line = static_cast<int>(i + 1);
    std::vector<std::string> words = split(line, ' ');
    e.name = words[0];
    for (std::size_t w = 1; w < words.size(); ++w) {
      std::size_t eq = words[w].find('=');
      if (words[w] == "custom")
        e.custom = true;
      else if (words[w] == "c_only")
        e.c_only = true;
      else if (words[w] == "unbound")
        e.unbound = true;
      else if (eq != std::string::npos && eq > 0)
        e.types[words[w].substr(0, eq)] = words[w].substr(eq + 1);
      else
        throw GenError("bindings.tbl:" + std::to_string(e.line) + ": \"" + words[w] +
                       "\" is neither custom, c_only, unbound nor PARAM=TYPE");
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string fortran_symbol(const std::string& c_name) {
  std::string s = c_name;
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s + "_";
}

}  // namespace simmpi::mpi::fortran
