// SPDX-License-Identifier: Apache-2.0
#include "libsimmpi/core/call_record.hpp"

#include "libsimmpi/core/datatype.hpp"
#include "libsimmpi/core/reduce_op.hpp"

namespace simmpi::mpi {

namespace ct = runtime::call_trace;

CallRecord& CallRecord::add_type(MPI_Datatype h) {
  const Datatype* t = find_datatype(h, call_.rank);
  if (!t) return value(-1);
  const MPI_Datatype named = predefined_handle(*t);
  return value(named != MPI_DATATYPE_NULL ? named : -1 - static_cast<std::int64_t>(t->size));
}

CallRecord& CallRecord::add_op(MPI_Op op) {
  if (!is_user_op(op)) return value(op);
  return value(is_commutative(op) ? ct::kUserOpCommutative : ct::kUserOpNoncommutative);
}

CallRecord& CallRecord::add_array(const int* v, int n) {
  if (n < 0 || !v) n = 0;
  fields_.push_back(n);
  for (int i = 0; i < n; ++i) fields_.push_back(v[i]);
  return *this;
}

void CallRecord::finish() {
  // Outputs go in at their positions, last first so earlier positions stay valid.
  for (auto it = outs_.rbegin(); it != outs_.rend(); ++it) {
    std::vector<std::int64_t> v;
    if (!it->second.n) {
      v.push_back(*it->second.v);
    } else {
      const int n = *it->second.n < 0 ? 0 : *it->second.n;
      v.push_back(n);
      for (int i = 0; i < n; ++i) v.push_back(it->second.v[i]);
    }
    fields_.insert(fields_.begin() + static_cast<std::ptrdiff_t>(it->first), v.begin(), v.end());
  }
  call_.set_record(static_cast<int>(kind_), std::move(fields_));
}

}  // namespace simmpi::mpi
