// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/observation.hpp"

#include <algorithm>

namespace simmpi::runtime {

void Observation::subscribe(Observer* o) {
  observers_.push_back(o);
  listening_ = true;
}

void Observation::unsubscribe(Observer* o) {
  observers_.erase(std::remove(observers_.begin(), observers_.end(), o), observers_.end());
  listening_ = !observers_.empty();
}

}  // namespace simmpi::runtime
