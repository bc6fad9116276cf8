// SPDX-License-Identifier: Apache-2.0
// Builds the compute models from the configuration.
#include "hardware/compute/compute_model.hpp"

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

std::shared_ptr<const EfficiencyProfile> load_profile(const runtime::Config& c) {
  const std::string path = c.path("blas.profile");
  if (path.empty()) return nullptr;
  return std::make_shared<const EfficiencyProfile>(
      EfficiencyProfile::load(resolve_profile_path(path, c.origin("blas.profile"))));
}

}  // namespace

std::string resolve_profile_path(const std::string& path, const std::string& origin) {
  if (path.empty() || path[0] == '/') return path;
  auto colon = origin.rfind(':');
  if (origin == "default" || origin == "--set" || colon == std::string::npos) return path;
  std::string file = origin.substr(0, colon);
  auto slash = file.rfind('/');
  return slash == std::string::npos ? path : file.substr(0, slash + 1) + path;
}

ComputeModel::ComputeModel(const runtime::Config& c)
    : ComputeModel(NodeSpec::from_config(c), GpuSpec::from_config(c), load_profile(c),
                   c.text("blas.mode") == "execute",
                   static_cast<std::uint64_t>(c.integer("runtime.seed"))) {}

ComputeModel::ComputeModel(const NodeSpec& node, const GpuSpec& gpu,
                           std::shared_ptr<const EfficiencyProfile> profile, bool execute,
                           std::uint64_t seed)
    : profile_(std::move(profile)),
      cpu_(node, profile_),
      gpu_(gpu, profile_),
      execute_(execute),
      seed_(seed) {
  static std::uint64_t models = 0;
  serial_ = ++models;
}

GpuDevice& ComputeModel::gpu_device(int node, int index) {
  SIMMPI_ASSERT(index >= 0 && index < gpu_.spec().count, "GPU %d of node %d does not exist", index,
                node);
  return devices_[static_cast<std::int64_t>(node) * gpu_.spec().count + index];
}

}  // namespace simmpi::hardware
