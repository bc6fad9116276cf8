// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/observation.hpp"

#include <algorithm>

namespace simmpi::runtime {

void Observation::subscribe(Observer* o) {
  observers_.push_back(o);
  listening_ = true;
  only_ = observers_.size() == 1 ? o : nullptr;
  wants_messages_ = wants_messages_ || o->wants_messages();
  wants_records_ = wants_records_ || o->wants_records();
  wants_lists_ = wants_messages_ || wants_records_;
}

void Observation::unsubscribe(Observer* o) {
  observers_.erase(std::remove(observers_.begin(), observers_.end(), o), observers_.end());
  listening_ = !observers_.empty();
  only_ = observers_.size() == 1 ? observers_.front() : nullptr;
  wants_messages_ = std::any_of(observers_.begin(), observers_.end(),
                                [](const Observer* x) { return x->wants_messages(); });
  wants_records_ = std::any_of(observers_.begin(), observers_.end(),
                               [](const Observer* x) { return x->wants_records(); });
  wants_lists_ = wants_messages_ || wants_records_;
}

}  // namespace simmpi::runtime
