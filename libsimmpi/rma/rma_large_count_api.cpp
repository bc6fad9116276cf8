// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) forms of the one-sided calls (MPI-4.1 12): each hands its counts and
// displacement units to the int form when they fit and fails with MPI_ERR_COUNT otherwise
// (core/count_narrowing.hpp), under the window's error handler.
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/count_narrowing.hpp"
#include "libsimmpi/rma/win_call.hpp"

using namespace simmpi::mpi;

namespace {

int fail_on_window(const CountNarrowing& n, MPI_Win win) {
  ApiCall call(n.call());
  int err = MPI_SUCCESS;
  WinRef w = find_window(call, win, &err);
  if (!w) return err;
  return win_fail(call, w, MPI_ERR_COUNT, "%s", n.message().c_str());
}

}  // namespace

extern "C" {

int MPI_Accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  CountNarrowing n("MPI_Accumulate_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Accumulate(origin_addr, origin_count_, origin_datatype, target_rank, target_disp,
                         target_count_, target_datatype, op, win);
}

int MPI_Get_accumulate_c(const void* origin_addr, MPI_Count origin_count,
                         MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
                         MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                         MPI_Win win) {
  CountNarrowing n("MPI_Get_accumulate_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int result_count_ = n(result_count, "result_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Get_accumulate(origin_addr, origin_count_, origin_datatype, result_addr,
                             result_count_, result_datatype, target_rank, target_disp,
                             target_count_, target_datatype, op, win);
}

int MPI_Get_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, MPI_Count target_count,
              MPI_Datatype target_datatype, MPI_Win win) {
  CountNarrowing n("MPI_Get_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Get(origin_addr, origin_count_, origin_datatype, target_rank, target_disp,
                  target_count_, target_datatype, win);
}

int MPI_Put_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, MPI_Count target_count,
              MPI_Datatype target_datatype, MPI_Win win) {
  CountNarrowing n("MPI_Put_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Put(origin_addr, origin_count_, origin_datatype, target_rank, target_disp,
                  target_count_, target_datatype, win);
}

int MPI_Raccumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                      MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
  CountNarrowing n("MPI_Raccumulate_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Raccumulate(origin_addr, origin_count_, origin_datatype, target_rank, target_disp,
                          target_count_, target_datatype, op, win, request);
}

int MPI_Rget_accumulate_c(const void* origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void* result_addr, MPI_Count result_count,
                          MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win, MPI_Request* request) {
  CountNarrowing n("MPI_Rget_accumulate_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int result_count_ = n(result_count, "result_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Rget_accumulate(origin_addr, origin_count_, origin_datatype, result_addr,
                              result_count_, result_datatype, target_rank, target_disp,
                              target_count_, target_datatype, op, win, request);
}

int MPI_Rget_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  CountNarrowing n("MPI_Rget_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Rget(origin_addr, origin_count_, origin_datatype, target_rank, target_disp,
                   target_count_, target_datatype, win, request);
}

int MPI_Rput_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request) {
  CountNarrowing n("MPI_Rput_c");
  const int origin_count_ = n(origin_count, "origin_count");
  const int target_count_ = n(target_count, "target_count");
  if (!n.fits()) return fail_on_window(n, win);
  return PMPI_Rput(origin_addr, origin_count_, origin_datatype, target_rank, target_disp,
                   target_count_, target_datatype, win, request);
}

int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                       void* baseptr, MPI_Win* win) {
  CountNarrowing n("MPI_Win_allocate_c");
  const int disp_unit_ = n(disp_unit, "disp_unit");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Win_allocate(size, disp_unit_, info, comm, baseptr, win);
}

int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                              void* baseptr, MPI_Win* win) {
  CountNarrowing n("MPI_Win_allocate_shared_c");
  const int disp_unit_ = n(disp_unit, "disp_unit");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Win_allocate_shared(size, disp_unit_, info, comm, baseptr, win);
}

int MPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                     MPI_Win* win) {
  CountNarrowing n("MPI_Win_create_c");
  const int disp_unit_ = n(disp_unit, "disp_unit");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Win_create(base, size, disp_unit_, info, comm, win);
}

int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit,
                           void* baseptr) {
  int disp_unit_ = 0;
  const int err =
      PMPI_Win_shared_query(win, rank, size, disp_unit ? &disp_unit_ : nullptr, baseptr);
  if (err == MPI_SUCCESS && disp_unit) *disp_unit = disp_unit_;
  return err;
}

}  // extern "C"
