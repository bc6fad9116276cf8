// SPDX-License-Identifier: Apache-2.0
// Argument checks and handle registration shared by the datatype functions.
#include "libsimmpi/datatype/type_args.hpp"

#include <algorithm>
#include <climits>
#include <cstdarg>
#include <cstdio>

#include "libsimmpi/datatype/type_table.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

TypeArgs& TypeArgs::fail(int cls, const char* fmt, ...) {
  if (!ok()) return *this;
  va_list ap;
  va_start(ap, fmt);
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  error_ = call_.fail(comm_, cls, "%s", text);
  return *this;
}

TypeArgs& TypeArgs::count(long long n, const char* what) {
  if (ok() && n < 0) fail(MPI_ERR_COUNT, "%s=%lld is negative", what, n);
  return *this;
}

TypeArgs& TypeArgs::nonnegative(long long v, const char* what) {
  if (ok() && v < 0) fail(MPI_ERR_ARG, "%s=%lld is negative", what, v);
  return *this;
}

TypeArgs& TypeArgs::array(const void* a, long long n, const char* what) {
  if (ok() && !a && n > 0) fail(MPI_ERR_ARG, "%s is NULL with count=%lld", what, n);
  return *this;
}

TypeArgs& TypeArgs::out(const void* p, const char* what) {
  if (ok() && !p) fail(MPI_ERR_ARG, "%s is NULL", what);
  return *this;
}

TypeArgs& TypeArgs::type(MPI_Datatype h, const char* what, const Datatype** t) {
  if (!ok()) return *this;
  *t = find_datatype(h, call_.rank);
  if (*t) return *this;
  if (h == MPI_DATATYPE_NULL) return fail(MPI_ERR_TYPE, "%s is MPI_DATATYPE_NULL", what);
  return fail(MPI_ERR_TYPE,
              "%s=0x%08x is not a datatype of this rank (never created, or freed "
              "with MPI_Type_free)",
              what, static_cast<unsigned>(h));
}

TypeArgs& TypeArgs::type_at(MPI_Datatype h, const char* what, int i, const Datatype** t) {
  if (!ok()) return *this;
  *t = find_datatype(h, call_.rank);
  if (*t) return *this;
  const std::string entry = simmpi::strprintf("%s[%d]", what, i);
  return type(h, entry.c_str(), t);
}

Envelope counted_envelope(int combiner, const std::vector<long long>& counts,
                          std::vector<MPI_Aint> aints, std::vector<TypeRef> types) {
  Envelope e{combiner, {}, std::move(aints), std::move(types), {}};
  const bool fit = std::all_of(counts.begin(), counts.end(),
                               [](long long v) { return v >= INT_MIN && v <= INT_MAX; });
  if (fit)
    e.ints.assign(counts.begin(), counts.end());
  else
    e.large_counts.assign(counts.begin(), counts.end());
  return e;
}

int TypeArgs::publish(std::unique_ptr<Datatype> t, Envelope envelope, MPI_Datatype* newtype) {
  t->derived = std::make_unique<DerivedInfo>();
  DerivedInfo& info = *t->derived;
  t->name = info.label;
  info.envelope = std::move(envelope);
  *newtype = type_table().add(call_.rank, TypeRef(t.release()));
  std::snprintf(info.label, sizeof info.label, "datatype 0x%08x (from %s)",
                static_cast<unsigned>(*newtype), call_.name);
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi
