// SPDX-License-Identifier: Apache-2.0
// Efficiency profile files: reading (toml++), lookup and writing.
#include "hardware/compute/efficiency_profile.hpp"

#include <toml++/toml.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

using runtime::Quantity;

std::string where(const std::string& source, const toml::node& n) {
  return source + ":" + std::to_string(n.source().begin.line);
}

double quantity(const toml::node& n, Quantity q, const std::string& source,
                const std::string& key) {
  auto text = n.value<std::string>();
  std::string why = "expected a string with a unit, e.g. \"2us\"";
  if (text)
    if (auto v = runtime::parse_quantity(*text, q, &why)) return *v;
  throw ConfigError(where(source, n) + ": " + key + ": " + why);
}

double number(const toml::node& n, const std::string& source, const std::string& key) {
  if (auto v = n.value<double>()) return *v;
  throw ConfigError(where(source, n) + ": " + key + ": expected a number");
}

EfficiencyClass parse_class(const toml::table& t, const std::string& source,
                            const std::string& key) {
  EfficiencyClass c;
  bool has_efficiency = false;
  for (auto&& [k, v] : t) {
    std::string name(k.str()), full = key + "." + name;
    if (name == "up_to") {
      c.up_to = static_cast<std::int64_t>(number(v, source, full));
      if (c.up_to <= 0) throw ConfigError(where(source, v) + ": " + full + " must be positive");
    } else if (name == "efficiency") {
      c.efficiency = number(v, source, full);
      has_efficiency = true;
      if (!(c.efficiency > 0) || !std::isfinite(c.efficiency))
        throw ConfigError(where(source, v) + ": " + full + " = " + std::to_string(c.efficiency) +
                          ": an efficiency must be positive (it divides the peak)");
    } else if (name == "overhead") {
      c.overhead_s = quantity(v, Quantity::Time, source, full);
    } else if (name == "r2") {
      c.r2 = number(v, source, full);
    } else if (name == "samples") {
      c.samples = static_cast<int>(number(v, source, full));
    } else {
      throw ConfigError(where(source, v) + ": unknown field \"" + name + "\" in " + key +
                        "; allowed: up_to, efficiency, overhead, r2, samples");
    }
  }
  if (!has_efficiency)
    throw ConfigError(where(source, t) + ": " + key + ": a class needs an efficiency");
  return c;
}

void parse_kernel(EfficiencyProfile& p, Device d, const std::string& name, const toml::node& n,
                  const std::string& source) {
  std::string key = std::string(d == Device::Cpu ? "cpu." : "gpu.") + name;
  auto id = parse_kernel_name(name);
  if (!id)
    throw ConfigError(where(source, n) + ": unknown kernel \"" + key + "\"; kernels are " +
                      kernel_name_list());
  const toml::array* classes =
      n.is_table() ? n.as_table()->get_as<toml::array>("classes") : nullptr;
  if (!classes || classes->empty())
    throw ConfigError(where(source, n) + ": " + key +
                      " needs classes = [ { efficiency = ..., overhead = \"...\" }, ... ]");
  std::vector<EfficiencyClass> list;
  for (const toml::node& c : *classes) {
    if (!c.is_table())
      throw ConfigError(where(source, c) + ": " + key + ".classes: each class is a table");
    list.push_back(parse_class(*c.as_table(), source, key));
  }
  for (std::size_t i = 0; i + 1 < list.size(); ++i)
    if (list[i].up_to == 0 || (list[i + 1].up_to != 0 && list[i + 1].up_to <= list[i].up_to))
      throw ConfigError(where(source, n) + ": " + key +
                        ".classes: up_to must increase, and only the last class may omit it");
  p.set(d, *id, std::move(list));
}

std::string format_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

EfficiencyProfile EfficiencyProfile::parse(std::string_view text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw ConfigError(source + ":" + std::to_string(e.source().begin.line) +
                      ": malformed TOML: " + std::string(e.description()));
  }
  EfficiencyProfile p;
  p.source_ = source;
  for (auto&& [k, node] : root) {
    std::string name(k.str());
    if (name == "format") continue;
    if (name == "reference" && node.is_table()) {
      const toml::table& r = *node.as_table();
      if (auto d = r["description"].value<std::string>()) p.description = *d;
      if (auto* n = r.get("peak_flops"))
        p.reference_peak_flops = quantity(*n, Quantity::FlopRate, source, "reference.peak_flops");
      if (auto* n = r.get("memory_bw"))
        p.reference_memory_Bps = quantity(*n, Quantity::Bandwidth, source, "reference.memory_bw");
    } else if ((name == "cpu" || name == "gpu") && node.is_table()) {
      for (auto&& [kk, kn] : *node.as_table())
        parse_kernel(p, name == "cpu" ? Device::Cpu : Device::Gpu, std::string(kk.str()), kn,
                     source);
    } else {
      throw ConfigError(where(source, node) + ": unknown entry \"" + name +
                        "\" in a compute profile; allowed: format, [reference], [cpu.<kernel>], "
                        "[gpu.<kernel>]");
    }
  }
  return p;
}

EfficiencyProfile EfficiencyProfile::load(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw ConfigError("compute profile \"" + path + "\" cannot be read (" + std::strerror(errno) +
                      "); blas.profile names it");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

std::string EfficiencyProfile::key(Device d, KernelId k) {
  return (d == Device::Cpu ? "cpu." : "gpu.") + kernel_name(k.kernel, k.precision);
}

bool EfficiencyProfile::has(Device d, KernelId k) const {
  return kernels_.count(key(d, k)) != 0;
}

const EfficiencyClass* EfficiencyProfile::find(Device d, KernelId k, std::int64_t size) const {
  auto it = kernels_.find(key(d, k));
  if (it == kernels_.end()) return nullptr;
  for (const EfficiencyClass& c : it->second)
    if (c.up_to != 0 && size <= c.up_to) return &c;
  return &it->second.back();
}

void EfficiencyProfile::set(Device d, KernelId k, std::vector<EfficiencyClass> classes) {
  SIMMPI_ASSERT(!classes.empty(), "a kernel's efficiency needs at least one class");
  kernels_[key(d, k)] = std::move(classes);
}

std::string EfficiencyProfile::to_toml() const {
  std::ostringstream os;
  os << "# simmpi compute profile: t = ops / (peak * efficiency) + overhead (compute-bound\n"
     << "# kernels) or bytes / (bandwidth * efficiency) + overhead (memory-bound kernels).\n"
     << "format = 1\n\n[reference]\n";
  std::string desc = description;
  for (char& c : desc)
    if (c == '"' || c == '\\') c = '\'';
  os << "description = \"" << desc << "\"\n";
  if (reference_peak_flops > 0)
    os << "peak_flops = \"" << runtime::format_quantity(reference_peak_flops, Quantity::FlopRate)
       << "\"\n";
  if (reference_memory_Bps > 0)
    os << "memory_bw = \"" << format_double(reference_memory_Bps / 1e9) << "GB/s\"\n";
  for (const auto& [name, classes] : kernels_) {
    os << "\n[" << name << "]\nclasses = [\n";
    for (const EfficiencyClass& c : classes) {
      os << "  { ";
      if (c.up_to) os << "up_to = " << c.up_to << ", ";
      os << "efficiency = " << format_double(c.efficiency) << ", overhead = \""
         << format_double(c.overhead_s * 1e6) << "us\"";
      if (c.r2 >= 0) os << ", r2 = " << format_double(c.r2);
      if (c.samples) os << ", samples = " << c.samples;
      os << " },\n";
    }
    os << "]\n";
  }
  return os.str();
}

}  // namespace simmpi::hardware
