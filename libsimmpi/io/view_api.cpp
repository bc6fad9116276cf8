// SPDX-License-Identifier: Apache-2.0
// Views and individual file pointers (MPI-3.1 13.3, 13.4.3, 13.5): MPI_File_set_view,
// _get_view, _seek, _get_position, _get_byte_offset, _get_type_extent, and the data
// representations: "native" and "internal" (which simmpi defines as native: MPI-3.1 13.5.1
// leaves "internal" to the implementation) are supported; "external32" and user-defined
// representations (MPI_Register_datarep) are refused with MPI_ERR_UNSUPPORTED_DATAREP.
#include <cstring>
#include <string_view>

#include "libsimmpi/io/file_collective.hpp"
#include "libsimmpi/io/file_view.hpp"
#include "libsimmpi/io/host_data.hpp"

using namespace simmpi::mpi;

namespace {

// The committed type `h`, or nullptr after raising MPI_ERR_TYPE on the file into *err.
const Datatype* file_type(ApiCall& call, const FileRef& r, MPI_Datatype h, const char* what,
                          int* err) {
  const Datatype* t = find_datatype(h, call.rank);
  if (!t)
    *err = file_fail(call, r, MPI_ERR_TYPE, "%s is not a datatype of this rank", what);
  else if (!is_committed(*t))
    *err = file_fail(call, r, MPI_ERR_TYPE, "%s (%s) is not committed", what, t->name);
  else
    return t;
  return nullptr;
}

int check_datarep(ApiCall& call, const FileRef& r, const char* datarep) {
  if (!datarep) return file_fail(call, r, MPI_ERR_ARG, "datarep is NULL");
  std::string_view d(datarep);
  if (d == "native" || d == "internal") return MPI_SUCCESS;
  if (d == "external32")
    return file_fail(call, r, MPI_ERR_UNSUPPORTED_DATAREP,
                     "the data representation \"external32\" is not supported by simmpi for "
                     "files; use \"native\"");
  return file_fail(call, r, MPI_ERR_UNSUPPORTED_DATAREP,
                   "\"%s\" is not a data representation (simmpi has \"native\" and \"internal\")",
                   datarep);
}

// MPI_Register_datarep(_c): predefined names are MPI_ERR_DUP_DATAREP, others unsupported.
int refuse_datarep(const char* name, const char* datarep) {
  ApiCall call(name);
  if (!datarep) return file_null_fail(call, MPI_ERR_ARG, "datarep is NULL");
  std::string_view d(datarep);
  if (d == "native" || d == "internal" || d == "external32")
    return file_null_fail(call, MPI_ERR_DUP_DATAREP, "\"%s\" is a predefined data representation",
                          datarep);
  return file_null_fail(call, MPI_ERR_UNSUPPORTED_DATAREP,
                        "user-defined data representations (\"%s\") are not supported by simmpi",
                        datarep);
}

}  // namespace

extern "C" {

// Collective. Resets the individual and shared file pointers (MPI-3.1 13.3).
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char* datarep, MPI_Info info) {
  ApiCall call("MPI_File_set_view");
  (void)info;  // the view's hints change no timing of the model
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  const bool sequential = r.file->amode & MPI_MODE_SEQUENTIAL;
  if (disp == MPI_DISPLACEMENT_CURRENT && !sequential)
    return file_fail(call, r, MPI_ERR_ARG,
                     "disp=MPI_DISPLACEMENT_CURRENT needs a file opened MPI_MODE_SEQUENTIAL");
  if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT)
    return file_fail(call, r, MPI_ERR_ARG, "disp=%lld is negative", disp);
  const Datatype* et = file_type(call, r, etype, "etype", &err);
  if (!et) return err;
  const Datatype* ft = file_type(call, r, filetype, "filetype", &err);
  if (!ft) return err;
  if (std::string why = view_problem(*et, *ft); !why.empty())
    return file_fail(call, r, MPI_ERR_TYPE, "%s", why.c_str());
  err = check_datarep(call, r, datarep);
  if (err != MPI_SUCCESS) return err;
  if (r.member().split.begun_by)
    return file_fail(call, r, MPI_ERR_OTHER, "the split collective %s was not ended",
                     r.member().split.begun_by);
  std::uint32_t seq = 0;
  err = enter_file_collective(call, r, "MPI_File_set_view", static_cast<std::int64_t>(et->size),
                              &seq);
  if (err != MPI_SUCCESS) return err;
  FileMember& m = r.member();
  if (disp == MPI_DISPLACEMENT_CURRENT) disp = view_byte_offset(m.view, r.file->shared_position);
  m.view.disp = disp;
  m.view.etype = et;
  m.view.filetype = ft;
  m.view.etype_handle = etype;
  m.view.filetype_handle = filetype;
  m.view.datarep = datarep;
  m.position = 0;
  r.file->shared_position = 0;
  return MPI_SUCCESS;
}

int MPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                      char* datarep) {
  ApiCall call("MPI_File_get_view");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!disp || !etype || !filetype || !datarep)
    return file_fail(call, r, MPI_ERR_ARG, "an output is NULL");
  const FileView& v = r.member().view;
  *disp = v.disp;
  *etype = v.etype_handle;
  *filetype = v.filetype_handle;
  std::strncpy(datarep, v.datarep.c_str(), MPI_MAX_DATAREP_STRING - 1);
  datarep[MPI_MAX_DATAREP_STRING - 1] = '\0';
  return MPI_SUCCESS;
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  ApiCall call("MPI_File_seek");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (r.file->amode & MPI_MODE_SEQUENTIAL)
    return file_fail(call, r, MPI_ERR_UNSUPPORTED_OPERATION,
                     "the file was opened MPI_MODE_SEQUENTIAL: it has no individual file pointer");
  FileMember& m = r.member();
  MPI_Offset to = offset;
  if (whence == MPI_SEEK_CUR)
    to = m.position + offset;
  else if (whence == MPI_SEEK_END)
    to = view_etypes_before(m.view, host_size(r.file->fd)) + offset;
  else if (whence != MPI_SEEK_SET)
    return file_fail(call, r, MPI_ERR_ARG,
                     "whence=%d is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END", whence);
  if (to < 0)
    return file_fail(call, r, MPI_ERR_ARG, "offset=%lld from whence=%d gives position %lld < 0",
                     offset, whence, to);
  m.position = to;
  return MPI_SUCCESS;
}

int MPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  ApiCall call("MPI_File_get_position");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!offset) return file_fail(call, r, MPI_ERR_ARG, "offset is NULL");
  if (r.file->amode & MPI_MODE_SEQUENTIAL)
    return file_fail(call, r, MPI_ERR_UNSUPPORTED_OPERATION,
                     "the file was opened MPI_MODE_SEQUENTIAL: it has no individual file pointer");
  *offset = r.member().position;
  return MPI_SUCCESS;
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  ApiCall call("MPI_File_get_byte_offset");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  if (!disp) return file_fail(call, r, MPI_ERR_ARG, "disp is NULL");
  if (offset < 0) return file_fail(call, r, MPI_ERR_ARG, "offset=%lld is negative", offset);
  *disp = view_byte_offset(r.member().view, offset);
  return MPI_SUCCESS;
}

// In the native representation a type's extent in the file is its extent in memory.
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  ApiCall call("MPI_File_get_type_extent");
  int err = MPI_SUCCESS;
  FileRef r = find_file(call, fh, &err);
  if (!r) return err;
  const Datatype* t = find_datatype(datatype, call.rank);
  if (!t) return file_fail(call, r, MPI_ERR_TYPE, "datatype is not a datatype of this rank");
  if (!extent) return file_fail(call, r, MPI_ERR_ARG, "extent is NULL");
  *extent = t->extent;
  return MPI_SUCCESS;
}

// A user-defined representation would need its conversion functions called on every access;
// simmpi refuses it with the error class the standard has for an unsupported representation.
int MPI_Register_datarep(const char* datarep, MPI_Datarep_conversion_function* read_conversion_fn,
                         MPI_Datarep_conversion_function* write_conversion_fn,
                         MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  (void)read_conversion_fn;
  (void)write_conversion_fn;
  (void)dtype_file_extent_fn;
  (void)extra_state;
  return refuse_datarep("MPI_Register_datarep", datarep);
}
int MPI_Register_datarep_c(const char* datarep,
                           MPI_Datarep_conversion_function_c* read_conversion_fn,
                           MPI_Datarep_conversion_function_c* write_conversion_fn,
                           MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  (void)read_conversion_fn;
  (void)write_conversion_fn;
  (void)dtype_file_extent_fn;
  (void)extra_state;
  return refuse_datarep("MPI_Register_datarep_c", datarep);
}

}  // extern "C"
