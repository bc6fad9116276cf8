// SPDX-License-Identifier: Apache-2.0
// The privatization methods, private to runtime/privatize.
#pragma once

#include <memory>
#include <vector>

#include "runtime/privatize/privatizer.hpp"

namespace simmpi::runtime::detail {

// The pristine image with the copy-relocated variables taken from the live process.
std::vector<char> fresh_rank_image(const ProgramImage& image);

std::unique_ptr<Privatizer> make_copy_privatizer(const ProgramImage& image, int ranks);
std::unique_ptr<Privatizer> make_mmap_privatizer(const ProgramImage& image, int ranks);

}  // namespace simmpi::runtime::detail
