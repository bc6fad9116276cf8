// SPDX-License-Identifier: Apache-2.0
// Datatype queries: size, bounds and extents (MPI-3.1 4.1.5, 4.1.7, 4.1.8), the MPI-1 forms,
// and received counts (3.2.5, 4.1.11). The int, _x and large-count (_c) forms of a query share one
// 64-bit implementation; an int output that does not fit is MPI_UNDEFINED (4.1.5).
#include <climits>

#include "libsimmpi/datatype/type_args.hpp"

using namespace simmpi::mpi;

namespace {

// Checks `datatype` and the output pointers of a query; the type, or nullptr with *err set.
const Datatype* query(ApiCall& call, MPI_Datatype datatype, const void* out1, const void* out2,
                      int* err) {
  const Datatype* t = nullptr;
  TypeArgs a(call);
  a.type(datatype, "datatype", &t).out(out1, "output argument");
  if (out2) a.out(out2, "output argument");
  *err = a.error();
  return a.ok() ? t : nullptr;
}

// A value for an int output: MPI_UNDEFINED when it does not fit (MPI-3.1 4.1.5).
int clamp_to_int(long long v) {
  return v > INT_MAX ? MPI_UNDEFINED : static_cast<int>(v);
}

// Basic elements received, or -1 (MPI_UNDEFINED) when the bytes end inside one (MPI-3.1 4.1.11).
int elements(const char* name, const MPI_Status* status, MPI_Datatype datatype, long long* n) {
  ApiCall call(name, ApiCall::Needs::Nothing);
  int err;
  const Datatype* t = query(call, datatype, status, n, &err);
  if (!t) return err;
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
  *n = t->map.count_elements(static_cast<std::uint64_t>(status->simmpi_bytes));
  return MPI_SUCCESS;
}

// The size of `datatype` in bytes.
int type_size(const char* name, MPI_Datatype datatype, MPI_Count* size) {
  ApiCall call(name, ApiCall::Needs::Nothing);
  int err;
  const Datatype* t = query(call, datatype, size, nullptr, &err);
  if (!t) return err;
  *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}

// The bounds of `datatype`: lb and extent, or with `true_bounds` its data's.
int type_bounds(const char* name, MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent,
                bool true_bounds) {
  ApiCall call(name);
  int err;
  const Datatype* t = query(call, datatype, lb, extent, &err);
  if (!t) return err;
  *lb = true_bounds ? t->true_lb : t->lb;
  *extent = true_bounds ? t->true_extent : t->extent;
  return MPI_SUCCESS;
}

// Whole elements received; MPI_UNDEFINED when the bytes are not a whole number of them.
int whole_count(const char* name, const MPI_Status* status, MPI_Datatype datatype,
                MPI_Count* count) {
  ApiCall call(name, ApiCall::Needs::Nothing);
  int err;
  const Datatype* t = query(call, datatype, status, count, &err);
  if (!t) return err;
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "status is MPI_STATUS_IGNORE");
  auto bytes = static_cast<unsigned long long>(status->simmpi_bytes);
  if (t->size == 0)
    *count = 0;  // MPI-3.1 3.2.5
  else
    *count = bytes % t->size ? MPI_UNDEFINED : static_cast<MPI_Count>(bytes / t->size);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  MPI_Count wide = 0;
  int err = type_size("MPI_Type_size", datatype, size ? &wide : nullptr);
  if (!err) *size = clamp_to_int(wide);
  return err;
}
int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  return type_size("MPI_Type_size_x", datatype, size);
}
int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  return type_size("MPI_Type_size_c", datatype, size);
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  MPI_Count wide_lb = 0, wide_extent = 0;
  int err = type_bounds("MPI_Type_get_extent", datatype, lb ? &wide_lb : nullptr,
                        extent ? &wide_extent : nullptr, /*true_bounds=*/false);
  if (err) return err;
  *lb = wide_lb;
  *extent = wide_extent;
  return MPI_SUCCESS;
}
int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return type_bounds("MPI_Type_get_extent_x", datatype, lb, extent, /*true_bounds=*/false);
}
int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return type_bounds("MPI_Type_get_extent_c", datatype, lb, extent, /*true_bounds=*/false);
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  MPI_Count wide_lb = 0, wide_extent = 0;
  int err = type_bounds("MPI_Type_get_true_extent", datatype, true_lb ? &wide_lb : nullptr,
                        true_extent ? &wide_extent : nullptr, /*true_bounds=*/true);
  if (err) return err;
  *true_lb = wide_lb;
  *true_extent = wide_extent;
  return MPI_SUCCESS;
}
int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return type_bounds("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}
int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return type_bounds("MPI_Type_get_true_extent_c", datatype, true_lb, true_extent, true);
}

int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  ApiCall call("MPI_Type_extent");
  int err;
  const Datatype* t = query(call, datatype, extent, nullptr, &err);
  if (!t) return err;
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  ApiCall call("MPI_Type_lb");
  int err;
  const Datatype* t = query(call, datatype, displacement, nullptr, &err);
  if (!t) return err;
  *displacement = t->lb;
  return MPI_SUCCESS;
}

int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  ApiCall call("MPI_Type_ub");
  int err;
  const Datatype* t = query(call, datatype, displacement, nullptr, &err);
  if (!t) return err;
  *displacement = t->lb + t->extent;
  return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  MPI_Count wide = 0;
  int err = whole_count("MPI_Get_count", status, datatype, count ? &wide : nullptr);
  if (!err) *count = wide < 0 ? MPI_UNDEFINED : clamp_to_int(wide);
  return err;
}
int MPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return whole_count("MPI_Get_count_c", status, datatype, count);
}

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  long long n = 0;
  int err = elements("MPI_Get_elements", status, datatype, &n);
  if (err) return err;
  *count = n < 0 ? MPI_UNDEFINED : clamp_to_int(n);
  return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  long long n = 0;
  int err = elements("MPI_Get_elements_x", status, datatype, &n);
  if (err) return err;
  *count = n < 0 ? MPI_UNDEFINED : n;
  return MPI_SUCCESS;
}

int MPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  long long n = 0;
  int err = elements("MPI_Get_elements_c", status, datatype, &n);
  if (err) return err;
  *count = n < 0 ? MPI_UNDEFINED : n;
  return MPI_SUCCESS;
}

}  // extern "C"
