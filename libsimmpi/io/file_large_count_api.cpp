// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) forms of the file calls (MPI-4.1 14): each hands its count to the int
// form when it fits and fails with MPI_ERR_COUNT otherwise (core/count_narrowing.hpp), under the
// file's error handler.
#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/count_narrowing.hpp"
#include "libsimmpi/io/file_call.hpp"

using namespace simmpi::mpi;

namespace {

int fail_on_file(const CountNarrowing& n, MPI_File fh) {
  ApiCall call(n.call());
  int err = MPI_SUCCESS;
  FileRef f = find_file(call, fh, &err);
  if (!f) return err;
  return file_fail(call, f, MPI_ERR_COUNT, "%s", n.message().c_str());
}

}  // namespace

extern "C" {

int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count* extent) {
  MPI_Aint extent_ = 0;
  const int err = PMPI_File_get_type_extent(fh, datatype, extent ? &extent_ : nullptr);
  if (err == MPI_SUCCESS && extent) *extent = extent_;
  return err;
}

int MPI_File_iread_all_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Request* request) {
  CountNarrowing n("MPI_File_iread_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iread_all(fh, buf, count_, datatype, request);
}

int MPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Request* request) {
  CountNarrowing n("MPI_File_iread_at_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iread_at_all(fh, offset, buf, count_, datatype, request);
}

int MPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Request* request) {
  CountNarrowing n("MPI_File_iread_at_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iread_at(fh, offset, buf, count_, datatype, request);
}

int MPI_File_iread_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Request* request) {
  CountNarrowing n("MPI_File_iread_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iread(fh, buf, count_, datatype, request);
}

int MPI_File_iread_shared_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Request* request) {
  CountNarrowing n("MPI_File_iread_shared_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iread_shared(fh, buf, count_, datatype, request);
}

int MPI_File_iwrite_all_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request* request) {
  CountNarrowing n("MPI_File_iwrite_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iwrite_all(fh, buf, count_, datatype, request);
}

int MPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Request* request) {
  CountNarrowing n("MPI_File_iwrite_at_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iwrite_at_all(fh, offset, buf, count_, datatype, request);
}

int MPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Request* request) {
  CountNarrowing n("MPI_File_iwrite_at_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iwrite_at(fh, offset, buf, count_, datatype, request);
}

int MPI_File_iwrite_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Request* request) {
  CountNarrowing n("MPI_File_iwrite_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iwrite(fh, buf, count_, datatype, request);
}

int MPI_File_iwrite_shared_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request* request) {
  CountNarrowing n("MPI_File_iwrite_shared_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_iwrite_shared(fh, buf, count_, datatype, request);
}

int MPI_File_read_all_begin_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype) {
  CountNarrowing n("MPI_File_read_all_begin_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_all_begin(fh, buf, count_, datatype);
}

int MPI_File_read_all_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Status* status) {
  CountNarrowing n("MPI_File_read_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_all(fh, buf, count_, datatype, status);
}

int MPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
                                 MPI_Datatype datatype) {
  CountNarrowing n("MPI_File_read_at_all_begin_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_at_all_begin(fh, offset, buf, count_, datatype);
}

int MPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Status* status) {
  CountNarrowing n("MPI_File_read_at_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_at_all(fh, offset, buf, count_, datatype, status);
}

int MPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Status* status) {
  CountNarrowing n("MPI_File_read_at_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_at(fh, offset, buf, count_, datatype, status);
}

int MPI_File_read_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Status* status) {
  CountNarrowing n("MPI_File_read_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read(fh, buf, count_, datatype, status);
}

int MPI_File_read_ordered_begin_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype) {
  CountNarrowing n("MPI_File_read_ordered_begin_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_ordered_begin(fh, buf, count_, datatype);
}

int MPI_File_read_ordered_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status* status) {
  CountNarrowing n("MPI_File_read_ordered_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_ordered(fh, buf, count_, datatype, status);
}

int MPI_File_read_shared_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Status* status) {
  CountNarrowing n("MPI_File_read_shared_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_read_shared(fh, buf, count_, datatype, status);
}

int MPI_File_write_all_begin_c(MPI_File fh, const void* buf, MPI_Count count,
                               MPI_Datatype datatype) {
  CountNarrowing n("MPI_File_write_all_begin_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_all_begin(fh, buf, count_, datatype);
}

int MPI_File_write_all_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status* status) {
  CountNarrowing n("MPI_File_write_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_all(fh, buf, count_, datatype, status);
}

int MPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
                                  MPI_Datatype datatype) {
  CountNarrowing n("MPI_File_write_at_all_begin_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_at_all_begin(fh, offset, buf, count_, datatype);
}

int MPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Status* status) {
  CountNarrowing n("MPI_File_write_at_all_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_at_all(fh, offset, buf, count_, datatype, status);
}

int MPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Status* status) {
  CountNarrowing n("MPI_File_write_at_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_at(fh, offset, buf, count_, datatype, status);
}

int MPI_File_write_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Status* status) {
  CountNarrowing n("MPI_File_write_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write(fh, buf, count_, datatype, status);
}

int MPI_File_write_ordered_begin_c(MPI_File fh, const void* buf, MPI_Count count,
                                   MPI_Datatype datatype) {
  CountNarrowing n("MPI_File_write_ordered_begin_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_ordered_begin(fh, buf, count_, datatype);
}

int MPI_File_write_ordered_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status* status) {
  CountNarrowing n("MPI_File_write_ordered_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_ordered(fh, buf, count_, datatype, status);
}

int MPI_File_write_shared_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status* status) {
  CountNarrowing n("MPI_File_write_shared_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return fail_on_file(n, fh);
  return PMPI_File_write_shared(fh, buf, count_, datatype, status);
}

}  // extern "C"
