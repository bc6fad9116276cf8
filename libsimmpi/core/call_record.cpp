// SPDX-License-Identifier: Apache-2.0
#include "libsimmpi/core/call_record.hpp"

#include <cstring>

#include "libsimmpi/core/datatype.hpp"
#include "libsimmpi/core/reduce_op.hpp"

namespace simmpi::mpi {

namespace ct = runtime::call_trace;

CallRecord& CallRecord::add_value(std::int64_t v) {
  rec_->record.push_back(v);
  return *this;
}

CallRecord& CallRecord::add_out(const int* v, const int* n) {
  rec_->record_outs.push_back({rec_->record.size(), v, n});
  return *this;
}

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
  std::vector<std::int64_t>& fields = rec_->record;
  fields.push_back(n);
  for (int i = 0; i < n; ++i) fields.push_back(v[i]);
  return *this;
}

CallRecord& CallRecord::add_text(const char* s) {
  const std::size_t n = s ? std::strlen(s) : 0;
  std::vector<std::int64_t>& fields = rec_->record;
  fields.push_back(static_cast<std::int64_t>(n));
  for (std::size_t i = 0; i < n; ++i) fields.push_back(static_cast<unsigned char>(s[i]));
  return *this;
}

CallRecord& CallRecord::add_types(const MPI_Datatype* v, int n) {
  if (n < 0 || !v) n = 0;
  value(n);
  for (int i = 0; i < n; ++i) type(v[i]);
  return *this;
}

void CallRecord::persistent() {
  kind_ = ct::persistent_form(kind_);
  if (kind_ == ct::Kind::Count) cancel();  // a call with no persistent form: not recorded
}

void CallRecord::cancel() {
  if (!rec_) return;
  rec_->record.clear();
  rec_->record_outs.clear();
  rec_ = nullptr;
}

void CallRecord::finish() {
  // Outputs go in at their positions, last first so earlier positions stay valid.
  std::vector<std::int64_t>& fields = rec_->record;
  for (auto it = rec_->record_outs.rbegin(); it != rec_->record_outs.rend(); ++it) {
    std::vector<std::int64_t> v;
    if (!it->n) {
      v.push_back(*it->v);
    } else {
      const int n = *it->n < 0 ? 0 : *it->n;
      v.push_back(n);
      for (int i = 0; i < n; ++i) v.push_back(it->v[i]);
    }
    fields.insert(fields.begin() + static_cast<std::ptrdiff_t>(it->at), v.begin(), v.end());
  }
  rec_->record_outs.clear();
  rec_->facts.record_kind = static_cast<int>(kind_);
  // The communicators MPI_Comm_idup made since the rank's last record (see
  // call_trace_format.hpp): a CommIdupMade record each, after this call's.
  std::vector<std::int64_t>& made = call_.world.rank(call_.rank).idups_made;
  for (std::size_t i = 0; i + 1 < made.size(); i += 2)
    rec_->records_after.insert(
        rec_->records_after.end(),
        {static_cast<std::int64_t>(ct::Kind::CommIdupMade), 2, made[i], made[i + 1]});
  made.clear();
}

}  // namespace simmpi::mpi
