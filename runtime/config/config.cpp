// SPDX-License-Identifier: Apache-2.0
// Config loading (toml++), value parsing and printing.
#include "runtime/config/config.hpp"

#include <toml++/toml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

bool is_quantity(Kind k, Quantity* q) {
  switch (k) {
    case Kind::Time:
      *q = Quantity::Time;
      return true;
    case Kind::Bandwidth:
      *q = Quantity::Bandwidth;
      return true;
    case Kind::Size:
      *q = Quantity::Size;
      return true;
    case Kind::Frequency:
      *q = Quantity::Frequency;
      return true;
    case Kind::FlopRate:
      *q = Quantity::FlopRate;
      return true;
    default:
      return false;
  }
}

std::string choice_list(const OptionSpec& spec) {
  std::string s;
  for (const auto& c : spec.choices) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

bool parse_integer(std::string_view text, double* out) {
  std::string s(text);
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0') return false;
  *out = static_cast<double>(v);
  return true;
}

// Turns one TOML value into the text form that --set would use.
std::string node_text(const toml::node& n) {
  if (auto s = n.value_exact<std::string>()) return *s;
  if (auto i = n.value_exact<std::int64_t>()) return std::to_string(*i);
  if (auto d = n.value_exact<double>()) {
    std::ostringstream os;
    os.precision(17);
    os << *d;
    return os.str();
  }
  if (auto b = n.value_exact<bool>()) return *b ? "true" : "false";
  if (auto a = n.as_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < a->size(); ++i) s += (i ? ", " : "") + node_text(*a->get(i));
    return s + "]";
  }
  return "<unsupported TOML value>";
}

}  // namespace

Config::Config() {
  for (const auto& spec : option_registry()) set_value(spec.key, spec.default_text, "default");
}

void Config::set_value(std::string_view key, std::string_view value, const std::string& origin) {
  const OptionSpec* spec = find_option(key);
  if (!spec)
    throw ConfigError(origin + ": unknown key \"" + std::string(key) + "\"; did you mean \"" +
                      closest_option(key) + "\"? (--help-config lists every key)");
  Value v{spec, std::string(value), 0, {}, origin};
  auto fail = [&](const std::string& why) {
    throw ConfigError(origin + ": " + spec->key + " = \"" + std::string(value) + "\": " + why);
  };
  Quantity q;
  if (is_quantity(spec->kind, &q)) {
    std::string why;
    auto parsed = parse_quantity(value, q, &why);
    if (!parsed) fail(why);
    v.number = *parsed;
  } else if (spec->kind == Kind::Integer) {
    if (!parse_integer(value, &v.number)) fail("expected an integer, e.g. \"4\"");
  } else if (spec->kind == Kind::Real) {
    std::string s(value);
    char* end = nullptr;
    v.number = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0') fail("expected a number, e.g. \"0.85\"");
  } else if (spec->kind == Kind::Bool) {
    if (value != "true" && value != "false") fail("expected true or false");
    v.number = value == "true";
  } else if (spec->kind == Kind::Choice) {
    bool ok = false;
    for (const auto& c : spec->choices) ok |= value == c.name;
    if (!ok) fail("not one of: " + choice_list(*spec));
  } else if (spec->kind == Kind::IntegerList) {
    std::string s(value);
    if (s.size() < 2 || s.front() != '[' || s.back() != ']')
      fail("expected a list of integers, e.g. \"[44, 18]\"");
    std::stringstream items(s.substr(1, s.size() - 2));
    std::string item;
    while (std::getline(items, item, ',')) {
      double x;
      std::string t(item);
      t.erase(0, t.find_first_not_of(" \t"));
      t.erase(t.find_last_not_of(" \t") + 1);
      if (!parse_integer(t, &x)) fail("list item \"" + t + "\" is not an integer");
      if (x < spec->min || x > spec->max) fail("list item " + t + " out of range");
      v.list.push_back(static_cast<std::int64_t>(x));
    }
  }
  bool numeric = spec->kind != Kind::Text && spec->kind != Kind::Path &&
                 spec->kind != Kind::Choice && spec->kind != Kind::Bool &&
                 spec->kind != Kind::IntegerList;
  if (numeric && (v.number < spec->min || v.number > spec->max)) {
    std::ostringstream os;
    os << "out of range; allowed: " << spec->min << " to " << spec->max;
    if (is_quantity(spec->kind, &q))
      os << " (" << format_quantity(spec->min, q) << " to " << format_quantity(spec->max, q) << ")";
    fail(os.str());
  }
  values_[spec->key] = std::move(v);
}

void Config::set(std::string_view assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw ConfigError("--set " + std::string(assignment) +
                      ": expected key=value, e.g. --set network.link_bw=200Gbps");
  set_value(assignment.substr(0, eq), assignment.substr(eq + 1), "--set");
}

void Config::load_toml(std::string_view text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    throw ConfigError(source_name + ":" + std::to_string(e.source().begin.line) +
                      ": malformed TOML: " + std::string(e.description()));
  }
  // Flattens nested tables into dotted keys: [network] link_bw -> "network.link_bw".
  auto walk = [&](auto&& self, const toml::table& t, const std::string& prefix) -> void {
    for (auto&& [k, node] : t) {
      std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
      if (auto sub = node.as_table()) {
        self(self, *sub, key);
        continue;
      }
      std::string origin = source_name + ":" + std::to_string(node.source().begin.line);
      // A quoted number where a number is expected ("4" for 4) is accepted by --set, where
      // everything is text, but in a file it is a type mistake worth naming.
      const OptionSpec* spec = find_option(key);
      if (spec && node.is_string() &&
          (spec->kind == Kind::Integer || spec->kind == Kind::Real || spec->kind == Kind::Bool ||
           spec->kind == Kind::IntegerList))
        throw ConfigError(origin + ": " + key + " = \"" + node_text(node) + "\": expected " +
                          (spec->kind == Kind::IntegerList ? "a list of integers, e.g. [44, 18]"
                                                           : std::string(kind_name(spec->kind))) +
                          ", written without quotes");
      set_value(key, node_text(node), origin);
    }
  };
  walk(walk, root, "");
}

void Config::load_file(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw ConfigError("platform file \"" + path + "\" cannot be read (" + std::strerror(errno) +
                      ")");
  std::stringstream ss;
  ss << in.rdbuf();
  load_toml(ss.str(), path);
}

const Config::Value& Config::get(std::string_view key, Kind expected) const {
  auto it = values_.find(key);
  SIMMPI_ASSERT(it != values_.end(), "configuration key %.*s is not registered",
                static_cast<int>(key.size()), key.data());
  bool ok = it->second.spec->kind == expected ||
            (expected == Kind::Text && it->second.spec->kind == Kind::Choice);
  SIMMPI_ASSERT(ok, "key %s read as %s but registered as %s", it->second.spec->key,
                kind_name(expected), kind_name(it->second.spec->kind));
  return it->second;
}

std::int64_t Config::integer(std::string_view k) const {
  return static_cast<std::int64_t>(get(k, Kind::Integer).number);
}
double Config::real(std::string_view k) const {
  return get(k, Kind::Real).number;
}
bool Config::flag(std::string_view k) const {
  return get(k, Kind::Bool).number != 0;
}
const std::string& Config::text(std::string_view k) const {
  return get(k, Kind::Text).text;
}
std::string Config::path(std::string_view k) const {
  return resolve_path(get(k, Kind::Path).text);
}
std::string Config::resolve_path(const std::string& p) const {
  const std::string& dir = text("runtime.directory");
  if (p.empty() || p.front() == '/' || dir.empty()) return p;
  return dir.back() == '/' ? dir + p : dir + "/" + p;
}

const std::string* Config::unchosen_section_choice(const std::string& key) const {
  // "network.fat_tree.down": table "network", section "fat_tree"; it applies when a choice
  // key of table "network" (network.topology) has the value "fat_tree".
  std::size_t dot1 = key.find('.'), dot2 = key.find('.', dot1 + 1);
  if (dot1 == std::string::npos || dot2 == std::string::npos) return nullptr;
  std::string table = key.substr(0, dot1), section = key.substr(dot1 + 1, dot2 - dot1 - 1);
  for (const auto& [other, c] : values_) {
    if (c.spec->kind != Kind::Choice || other.rfind(table + ".", 0) != 0 ||
        other.find('.', table.size() + 1) != std::string::npos)
      continue;
    bool names_a_choice = false;
    for (const auto& choice : c.spec->choices) names_a_choice |= section == choice.name;
    if (names_a_choice && c.text != section) return &other;
  }
  return nullptr;
}

std::vector<std::string> Config::unused_settings() const {
  std::vector<std::string> out;
  for (const auto& [key, v] : values_) {
    if (v.origin == "default") continue;
    if (const std::string* other = unchosen_section_choice(key)) {
      const Value& c = values_.at(*other);
      std::string section = key.substr(key.find('.') + 1);
      section = section.substr(0, section.find('.'));
      out.push_back(key + " (" + v.origin + ") has no effect: it applies when " + *other + " = " +
                    section + ", and " + *other + " = " + c.text + " (" + c.origin + ")");
    }
  }
  return out;
}
std::vector<std::int64_t> Config::integer_list(std::string_view k) const {
  return get(k, Kind::IntegerList).list;
}
SimTime Config::time(std::string_view k) const {
  return SimTime::from_seconds(get(k, Kind::Time).number);
}
double Config::bandwidth_Bps(std::string_view k) const {
  return get(k, Kind::Bandwidth).number;
}
std::uint64_t Config::size_bytes(std::string_view k) const {
  return static_cast<std::uint64_t>(std::llround(get(k, Kind::Size).number));
}
double Config::frequency_hz(std::string_view k) const {
  return get(k, Kind::Frequency).number;
}
double Config::flop_rate(std::string_view k) const {
  return get(k, Kind::FlopRate).number;
}

const std::string& Config::origin(std::string_view key) const {
  auto it = values_.find(key);
  SIMMPI_ASSERT(it != values_.end(), "unknown key");
  return it->second.origin;
}

const std::string& Config::value_text(std::string_view key) const {
  auto it = values_.find(key);
  if (it == values_.end())
    throw ConfigError("unknown configuration key '" + std::string(key) + "'");
  return it->second.text;
}

std::string Config::to_toml() const {
  std::ostringstream os;
  std::string table;
  for (const auto& spec : option_registry()) {  // registry order groups keys by table
    const Value& v = values_.at(spec.key);
    std::string key(spec.key);
    if (unchosen_section_choice(key)) continue;
    std::string t = key.substr(0, key.rfind('.'));
    if (t != table) {
      os << (table.empty() ? "" : "\n") << "[" << t << "]\n";
      table = t;
    }
    bool bare = spec.kind == Kind::Integer || spec.kind == Kind::Real || spec.kind == Kind::Bool ||
                spec.kind == Kind::IntegerList;
    std::string value = bare ? v.text : "\"" + v.text + "\"";
    os << key.substr(key.rfind('.') + 1) << " = " << value << "  # " << v.origin << "\n";
  }
  return os.str();
}

}  // namespace simmpi::runtime
