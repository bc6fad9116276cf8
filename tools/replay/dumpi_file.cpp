// SPDX-License-Identifier: Apache-2.0
// DUMPI's binary format, read (see dumpi_file.hpp).
#include "tools/replay/dumpi_file.hpp"

#include <cstdio>
#include <cstring>
#include <map>

#include "runtime/core/error.hpp"

namespace simmpi::replay {
namespace {

// DUMPI's labels: a function's label is its index here (dumpi/common/funclabels.h's
// dumpi_function, whose names dumpi/common/funcs.c lists). The list's end is the end of the
// stream's label.
constexpr const char* kNames[] = {
    "MPI_Send",
    "MPI_Recv",
    "MPI_Get_count",
    "MPI_Bsend",
    "MPI_Ssend",
    "MPI_Rsend",
    "MPI_Buffer_attach",
    "MPI_Buffer_detach",
    "MPI_Isend",
    "MPI_Ibsend",
    "MPI_Issend",
    "MPI_Irsend",
    "MPI_Irecv",
    "MPI_Wait",
    "MPI_Test",
    "MPI_Request_free",
    "MPI_Waitany",
    "MPI_Testany",
    "MPI_Waitall",
    "MPI_Testall",
    "MPI_Waitsome",
    "MPI_Testsome",
    "MPI_Iprobe",
    "MPI_Probe",
    "MPI_Cancel",
    "MPI_Test_cancelled",
    "MPI_Send_init",
    "MPI_Bsend_init",
    "MPI_Ssend_init",
    "MPI_Rsend_init",
    "MPI_Recv_init",
    "MPI_Start",
    "MPI_Startall",
    "MPI_Sendrecv",
    "MPI_Sendrecv_replace",
    "MPI_Type_contiguous",
    "MPI_Type_vector",
    "MPI_Type_hvector",
    "MPI_Type_indexed",
    "MPI_Type_hindexed",
    "MPI_Type_struct",
    "MPI_Address",
    "MPI_Type_extent",
    "MPI_Type_size",
    "MPI_Type_lb",
    "MPI_Type_ub",
    "MPI_Type_commit",
    "MPI_Type_free",
    "MPI_Get_elements",
    "MPI_Pack",
    "MPI_Unpack",
    "MPI_Pack_size",
    "MPI_Barrier",
    "MPI_Bcast",
    "MPI_Gather",
    "MPI_Gatherv",
    "MPI_Scatter",
    "MPI_Scatterv",
    "MPI_Allgather",
    "MPI_Allgatherv",
    "MPI_Alltoall",
    "MPI_Alltoallv",
    "MPI_Reduce",
    "MPI_Op_create",
    "MPI_Op_free",
    "MPI_Allreduce",
    "MPI_Reduce_scatter",
    "MPI_Scan",
    "MPI_Group_size",
    "MPI_Group_rank",
    "MPI_Group_translate_ranks",
    "MPI_Group_compare",
    "MPI_Comm_group",
    "MPI_Group_union",
    "MPI_Group_intersection",
    "MPI_Group_difference",
    "MPI_Group_incl",
    "MPI_Group_excl",
    "MPI_Group_range_incl",
    "MPI_Group_range_excl",
    "MPI_Group_free",
    "MPI_Comm_size",
    "MPI_Comm_rank",
    "MPI_Comm_compare",
    "MPI_Comm_dup",
    "MPI_Comm_create",
    "MPI_Comm_split",
    "MPI_Comm_free",
    "MPI_Comm_test_inter",
    "MPI_Comm_remote_size",
    "MPI_Comm_remote_group",
    "MPI_Intercomm_create",
    "MPI_Intercomm_merge",
    "MPI_Keyval_create",
    "MPI_Keyval_free",
    "MPI_Attr_put",
    "MPI_Attr_get",
    "MPI_Attr_delete",
    "MPI_Topo_test",
    "MPI_Cart_create",
    "MPI_Dims_create",
    "MPI_Graph_create",
    "MPI_Graphdims_get",
    "MPI_Graph_get",
    "MPI_Cartdim_get",
    "MPI_Cart_get",
    "MPI_Cart_rank",
    "MPI_Cart_coords",
    "MPI_Graph_neighbors_count",
    "MPI_Graph_neighbors",
    "MPI_Cart_shift",
    "MPI_Cart_sub",
    "MPI_Cart_map",
    "MPI_Graph_map",
    "MPI_Get_processor_name",
    "MPI_Get_version",
    "MPI_Errhandler_create",
    "MPI_Errhandler_set",
    "MPI_Errhandler_get",
    "MPI_Errhandler_free",
    "MPI_Error_string",
    "MPI_Error_class",
    "MPI_Wtime",
    "MPI_Wtick",
    "MPI_Init",
    "MPI_Finalize",
    "MPI_Initialized",
    "MPI_Abort",
    "MPI_Pcontrol",
    "MPI_Close_port",
    "MPI_Comm_accept",
    "MPI_Comm_connect",
    "MPI_Comm_disconnect",
    "MPI_Comm_get_parent",
    "MPI_Comm_join",
    "MPI_Comm_spawn",
    "MPI_Comm_spawn_multiple",
    "MPI_Lookup_name",
    "MPI_Open_port",
    "MPI_Publish_name",
    "MPI_Unpublish_name",
    "MPI_Accumulate",
    "MPI_Get",
    "MPI_Put",
    "MPI_Win_complete",
    "MPI_Win_create",
    "MPI_Win_fence",
    "MPI_Win_free",
    "MPI_Win_get_group",
    "MPI_Win_lock",
    "MPI_Win_post",
    "MPI_Win_start",
    "MPI_Win_test",
    "MPI_Win_unlock",
    "MPI_Win_wait",
    "MPI_Alltoallw",
    "MPI_Exscan",
    "MPI_Add_error_class",
    "MPI_Add_error_code",
    "MPI_Add_error_string",
    "MPI_Comm_call_errhandler",
    "MPI_Comm_create_keyval",
    "MPI_Comm_delete_attr",
    "MPI_Comm_free_keyval",
    "MPI_Comm_get_attr",
    "MPI_Comm_get_name",
    "MPI_Comm_set_attr",
    "MPI_Comm_set_name",
    "MPI_File_call_errhandler",
    "MPI_Grequest_complete",
    "MPI_Grequest_start",
    "MPI_Init_thread",
    "MPI_Is_thread_main",
    "MPI_Query_thread",
    "MPI_Status_set_cancelled",
    "MPI_Status_set_elements",
    "MPI_Type_create_keyval",
    "MPI_Type_delete_attr",
    "MPI_Type_dup",
    "MPI_Type_free_keyval",
    "MPI_Type_get_attr",
    "MPI_Type_get_contents",
    "MPI_Type_get_envelope",
    "MPI_Type_get_name",
    "MPI_Type_set_attr",
    "MPI_Type_set_name",
    "MPI_Type_match_size",
    "MPI_Win_call_errhandler",
    "MPI_Win_create_keyval",
    "MPI_Win_delete_attr",
    "MPI_Win_free_keyval",
    "MPI_Win_get_attr",
    "MPI_Win_get_name",
    "MPI_Win_set_attr",
    "MPI_Win_set_name",
    "MPI_Alloc_mem",
    "MPI_Comm_create_errhandler",
    "MPI_Comm_get_errhandler",
    "MPI_Comm_set_errhandler",
    "MPI_File_create_errhandler",
    "MPI_File_get_errhandler",
    "MPI_File_set_errhandler",
    "MPI_Finalized",
    "MPI_Free_mem",
    "MPI_Get_address",
    "MPI_Info_create",
    "MPI_Info_delete",
    "MPI_Info_dup",
    "MPI_Info_free",
    "MPI_Info_get",
    "MPI_Info_get_nkeys",
    "MPI_Info_get_nthkey",
    "MPI_Info_get_valuelen",
    "MPI_Info_set",
    "MPI_Pack_external",
    "MPI_Pack_external_size",
    "MPI_Request_get_status",
    "MPI_Type_create_darray",
    "MPI_Type_create_hindexed",
    "MPI_Type_create_hvector",
    "MPI_Type_create_indexed_block",
    "MPI_Type_create_resized",
    "MPI_Type_create_struct",
    "MPI_Type_create_subarray",
    "MPI_Type_get_extent",
    "MPI_Type_get_true_extent",
    "MPI_Unpack_external",
    "MPI_Win_create_errhandler",
    "MPI_Win_get_errhandler",
    "MPI_Win_set_errhandler",
    "MPI_File_open",
    "MPI_File_close",
    "MPI_File_delete",
    "MPI_File_set_size",
    "MPI_File_preallocate",
    "MPI_File_get_size",
    "MPI_File_get_group",
    "MPI_File_get_amode",
    "MPI_File_set_info",
    "MPI_File_get_info",
    "MPI_File_set_view",
    "MPI_File_get_view",
    "MPI_File_read_at",
    "MPI_File_read_at_all",
    "MPI_File_write_at",
    "MPI_File_write_at_all",
    "MPI_File_iread_at",
    "MPI_File_iwrite_at",
    "MPI_File_read",
    "MPI_File_read_all",
    "MPI_File_write",
    "MPI_File_write_all",
    "MPI_File_iread",
    "MPI_File_iwrite",
    "MPI_File_seek",
    "MPI_File_get_position",
    "MPI_File_get_byte_offset",
    "MPI_File_read_shared",
    "MPI_File_write_shared",
    "MPI_File_iread_shared",
    "MPI_File_iwrite_shared",
    "MPI_File_read_ordered",
    "MPI_File_write_ordered",
    "MPI_File_seek_shared",
    "MPI_File_get_position_shared",
    "MPI_File_read_at_all_begin",
    "MPI_File_read_at_all_end",
    "MPI_File_write_at_all_begin",
    "MPI_File_write_at_all_end",
    "MPI_File_read_all_begin",
    "MPI_File_read_all_end",
    "MPI_File_write_all_begin",
    "MPI_File_write_all_end",
    "MPI_File_read_ordered_begin",
    "MPI_File_read_ordered_end",
    "MPI_File_write_ordered_begin",
    "MPI_File_write_ordered_end",
    "MPI_File_get_type_extent",
    "MPI_Register_datarep",
    "MPI_File_set_atomicity",
    "MPI_File_get_atomicity",
    "MPI_File_sync",
    "MPIO_Test",
    "MPIO_Wait",
    "MPIO_Testall",
    "MPIO_Waitall",
    "MPIO_Testany",
    "MPIO_Waitany",
    "MPIO_Waitsome",
    "MPIO_Testsome",
    "MPI_ALL_FUNCTIONS",
    "Function_enter",
    "Function_exit",
};
constexpr int kLabels = static_cast<int>(sizeof kNames / sizeof kNames[0]);
constexpr int kEndOfStream = kLabels;

constexpr std::uint64_t kIndexMagic = (std::uint64_t{0xffaadd44} << 32) | 0x554d5049;
constexpr int kIndexWords = 8;  // magic, sizes, addresses, counter labels, header, body, footer,
                                // key-values (DUMPI 0.6.6 and later)

// The record header's mask bits (dumpi/common/settings.h).
constexpr unsigned kStatusBits = 0x3, kCpuTime = 0x4, kWallTime = 0x8, kThreadId = 0x40,
                   kCounters = 0x80;

// The fields of the records this reader knows, in the order dumpiio.c's dumpi_read_* functions
// read them: 'i' a 32-bit integer (counts, ranks, tags, requests, flags), 'h' a 16-bit handle
// (communicator, datatype, group, window, info, keyval, errhandler), 'b' an 8-bit enumeration
// (operation, thread level, lock type, assertion, comparison), 'l' a 64-bit integer, 'a' an array
// of 32-bit integers (its 32-bit length first), 'H' an array of 16-bit datatypes, 's' statuses
// (when the trace has them: a 32-bit count, then per status its bytes, source, cancelled and
// error flags and tag), 'c' a string (32-bit length and bytes), 'v' MPI_Init's arguments (a
// 32-bit count and that many strings), 'R' a root rank, '?' the next field only at the root
// (the first field is then the caller's rank).
struct Fields {
  const char* name;
  const char* fields;
};
constexpr Fields kFields[] = {
    {"MPI_Send", "ihiih"},
    {"MPI_Recv", "ihiihs"},
    {"MPI_Get_count", "shi"},
    {"MPI_Bsend", "ihiih"},
    {"MPI_Ssend", "ihiih"},
    {"MPI_Rsend", "ihiih"},
    {"MPI_Buffer_attach", "i"},
    {"MPI_Buffer_detach", "i"},
    {"MPI_Isend", "ihiihi"},
    {"MPI_Ibsend", "ihiihi"},
    {"MPI_Issend", "ihiihi"},
    {"MPI_Irsend", "ihiihi"},
    {"MPI_Irecv", "ihiihi"},
    {"MPI_Wait", "is"},
    {"MPI_Test", "iis"},
    {"MPI_Request_free", "i"},
    {"MPI_Waitany", "iais"},
    {"MPI_Testany", "iaiis"},
    {"MPI_Waitall", "ias"},
    {"MPI_Testall", "iais"},
    {"MPI_Waitsome", "iaias"},
    {"MPI_Testsome", "iaias"},
    {"MPI_Iprobe", "iihis"},
    {"MPI_Probe", "iihs"},
    {"MPI_Cancel", "i"},
    {"MPI_Test_cancelled", "si"},
    {"MPI_Send_init", "ihiihi"},
    {"MPI_Bsend_init", "ihiihi"},
    {"MPI_Ssend_init", "ihiihi"},
    {"MPI_Rsend_init", "ihiihi"},
    {"MPI_Recv_init", "ihiihi"},
    {"MPI_Start", "i"},
    {"MPI_Startall", "ia"},
    {"MPI_Sendrecv", "ihiiihiihs"},
    {"MPI_Sendrecv_replace", "ihiiiihs"},
    {"MPI_Type_contiguous", "ihh"},
    {"MPI_Type_vector", "iiihh"},
    {"MPI_Type_hvector", "iiihh"},
    {"MPI_Type_indexed", "iaahh"},
    {"MPI_Type_hindexed", "iaahh"},
    {"MPI_Type_struct", "iaaHh"},
    {"MPI_Address", "i"},
    {"MPI_Type_extent", "hi"},
    {"MPI_Type_size", "hi"},
    {"MPI_Type_lb", "hi"},
    {"MPI_Type_ub", "hi"},
    {"MPI_Type_commit", "h"},
    {"MPI_Type_free", "h"},
    {"MPI_Get_elements", "shi"},
    {"MPI_Pack", "ihiiih"},
    {"MPI_Unpack", "iiiihh"},
    {"MPI_Pack_size", "ihhi"},
    {"MPI_Barrier", "h"},
    {"MPI_Bcast", "ihih"},
    {"MPI_Gather", "iihRh?i?h"},
    {"MPI_Gatherv", "iiihRh?a?ah"},
    {"MPI_Scatter", "iihRh?i?h"},
    {"MPI_Scatterv", "iihihRh?a?a"},
    {"MPI_Allgather", "ihihh"},
    {"MPI_Allgatherv", "iihaahh"},
    {"MPI_Alltoall", "ihihh"},
    {"MPI_Alltoallv", "iaahaahh"},
    {"MPI_Reduce", "ihbih"},
    {"MPI_Op_create", "ib"},
    {"MPI_Op_free", "b"},
    {"MPI_Allreduce", "ihbh"},
    {"MPI_Reduce_scatter", "iahbh"},
    {"MPI_Scan", "ihbh"},
    {"MPI_Group_size", "hi"},
    {"MPI_Group_rank", "hi"},
    {"MPI_Group_translate_ranks", "hiaha"},
    {"MPI_Group_compare", "hhb"},
    {"MPI_Comm_group", "hh"},
    {"MPI_Group_union", "hhh"},
    {"MPI_Group_intersection", "hhh"},
    {"MPI_Group_difference", "hhh"},
    {"MPI_Group_incl", "hiah"},
    {"MPI_Group_excl", "hiah"},
    {"MPI_Group_free", "h"},
    {"MPI_Comm_size", "hi"},
    {"MPI_Comm_rank", "hi"},
    {"MPI_Comm_compare", "hhb"},
    {"MPI_Comm_dup", "hh"},
    {"MPI_Comm_create", "hhh"},
    {"MPI_Comm_split", "hiih"},
    {"MPI_Comm_free", "h"},
    {"MPI_Comm_test_inter", "hi"},
    {"MPI_Keyval_create", "h"},
    {"MPI_Keyval_free", "h"},
    {"MPI_Attr_put", "hi"},
    {"MPI_Attr_get", "hii"},
    {"MPI_Attr_delete", "hi"},
    {"MPI_Topo_test", "hb"},
    {"MPI_Cart_create", "hiaaih"},
    {"MPI_Dims_create", "iiaa"},
    {"MPI_Cartdim_get", "hi"},
    {"MPI_Cart_get", "ihiaaa"},
    {"MPI_Cart_rank", "ihai"},
    {"MPI_Cart_coords", "ihiia"},
    {"MPI_Cart_shift", "hiiii"},
    {"MPI_Get_processor_name", "ci"},
    {"MPI_Get_version", "ii"},
    {"MPI_Errhandler_set", "hh"},
    {"MPI_Errhandler_get", "hh"},
    {"MPI_Error_string", "ici"},
    {"MPI_Error_class", "ii"},
    {"MPI_Wtime", ""},
    {"MPI_Wtick", ""},
    {"MPI_Init", "v"},
    {"MPI_Finalize", ""},
    {"MPI_Initialized", "i"},
    {"MPI_Abort", "hi"},
    {"MPI_Accumulate", "ihiiihbh"},
    {"MPI_Get", "ihiiihh"},
    {"MPI_Put", "ihiiihh"},
    {"MPI_Win_complete", "h"},
    {"MPI_Win_create", "iihhh"},
    {"MPI_Win_fence", "bh"},
    {"MPI_Win_free", "h"},
    {"MPI_Win_get_group", "hh"},
    {"MPI_Win_lock", "bibh"},
    {"MPI_Win_post", "hbh"},
    {"MPI_Win_start", "hbh"},
    {"MPI_Win_test", "hi"},
    {"MPI_Win_unlock", "ih"},
    {"MPI_Win_wait", "h"},
    {"MPI_Alltoallw", "iaaHaaHh"},
    {"MPI_Exscan", "ihbh"},
    {"MPI_Comm_create_keyval", "h"},
    {"MPI_Comm_delete_attr", "hh"},
    {"MPI_Comm_free_keyval", "h"},
    {"MPI_Comm_get_attr", "hhi"},
    {"MPI_Comm_get_name", "hci"},
    {"MPI_Comm_set_attr", "hh"},
    {"MPI_Comm_set_name", "hc"},
    {"MPI_Init_thread", "vbb"},
    {"MPI_Is_thread_main", "i"},
    {"MPI_Query_thread", "b"},
    {"MPI_Type_dup", "hh"},
    {"MPI_Type_get_envelope", "hiiib"},
    {"MPI_Type_get_name", "hci"},
    {"MPI_Type_set_name", "hc"},
    {"MPI_Alloc_mem", "ih"},
    {"MPI_Comm_create_errhandler", "h"},
    {"MPI_Comm_get_errhandler", "hh"},
    {"MPI_Comm_set_errhandler", "hh"},
    {"MPI_Finalized", "i"},
    {"MPI_Free_mem", ""},
    {"MPI_Get_address", "i"},
    {"MPI_Info_create", "h"},
    {"MPI_Info_free", "h"},
    {"MPI_Info_set", "hcc"},
    {"MPI_Request_get_status", "iis"},
    {"MPI_Type_create_hindexed", "iaahh"},
    {"MPI_Type_create_hvector", "iiihh"},
    {"MPI_Type_create_indexed_block", "iiahh"},
    {"MPI_Type_create_resized", "hiih"},
    {"MPI_Type_create_struct", "iaaHh"},
    {"MPI_Type_create_subarray", "iaaabhh"},
    {"MPI_Type_get_extent", "hii"},
    {"MPI_Type_get_true_extent", "hii"},
    {"Function_enter", "l"},
    {"Function_exit", "l"},
};

// label -> fields (nullptr: not known).
const std::vector<const char*>& fields_by_label() {
  static const std::vector<const char*> table = [] {
    std::vector<const char*> t(kLabels, nullptr);
    for (const Fields& f : kFields)
      t[static_cast<std::size_t>(DumpiFile::label(f.name))] = f.fields;
    return t;
  }();
  return table;
}

std::uint64_t be(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

std::string DumpiFile::name(int label) {
  if (label >= 0 && label < kLabels) return kNames[label];
  return strprintf("label %d", label);
}

int DumpiFile::label(const std::string& name) {
  for (int i = 0; i < kLabels; ++i)
    if (name == kNames[i]) return i;
  return -1;
}

bool DumpiFile::readable(int label) {
  return label >= 0 && label < kLabels && fields_by_label()[static_cast<std::size_t>(label)];
}

DumpiFile::DumpiFile(std::string path, int rank) : path_(std::move(path)), rank_(rank) {
  std::FILE* f = std::fopen(path_.c_str(), "rb");
  if (!f) throw DumpiError(path_ + ": cannot open it: " + std::strerror(errno));
  unsigned char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data_.insert(data_.end(), buf, buf + n);
  std::fclose(f);
  const std::size_t index_bytes = kIndexWords * 8;
  if (data_.size() < 8 + index_bytes || be(data_.data(), 8) != kIndexMagic)
    throw DumpiError(path_ + ": not a DUMPI trace file (no DUMPI magic at its start)");
  const unsigned char* index = data_.data() + data_.size() - index_bytes;
  if (be(index, 8) != kIndexMagic)
    throw DumpiError(path_ +
                     ": no DUMPI index at its end (the file is truncated, or older than "
                     "DUMPI 0.6.6, which is not read)");
  std::uint64_t offsets[kIndexWords];
  for (int i = 1; i < kIndexWords; ++i) offsets[i] = be(index + 8 * i, 8);
  const std::uint64_t sizes = offsets[1], header = offsets[4], body = offsets[5],
                      footer = offsets[6];
  const std::uint64_t limit = data_.size() - index_bytes;
  if (header + 2 + 3 > limit || body + 8 > limit || footer > limit || sizes > limit)
    throw DumpiError(path_ + ": its DUMPI index points past the file (the file is corrupt)");
  // The header starts with the version.
  const unsigned char* v = data_.data() + header;
  if (header > 0) {
    const int major = v[0], minor = v[1], patch = v[2];
    if (major == 0 && (minor < 6 || (minor == 6 && patch < 9)))
      throw DumpiError(
          strprintf("%s: written by DUMPI %d.%d.%d: versions before 0.6.9 are not read",
                    path_.c_str(), major, minor, patch));
  }
  if (sizes > 0) {
    pos_ = sizes;
    end_ = limit;
    const auto count = u(4);
    for (std::uint64_t i = 0; i < count; ++i) sizes_.push_back(static_cast<std::int32_t>(u(4)));
  }
  pos_ = body;
  end_ = limit;
  (void)u(4);  // the CPU time's offset
  wall_offset_s_ = static_cast<std::int32_t>(u(4));
  end_ = footer > body ? footer : limit;
}

std::uint64_t DumpiFile::u(int bytes) {
  if (pos_ + static_cast<std::size_t>(bytes) > end_) truncated();
  const std::uint64_t v = be(data_.data() + pos_, bytes);
  pos_ += static_cast<std::size_t>(bytes);
  return v;
}

void DumpiFile::truncated() const {
  if (current_ < 0) throw DumpiError(path_ + ": the file is truncated or corrupt");
  throw DumpiError(strprintf(
      "%s: rank %d, record %llu (%s): its fields run past the end of the "
      "records (the file is truncated or corrupt)",
      path_.c_str(), rank_, static_cast<unsigned long long>(number_), name(current_).c_str()));
}

std::int64_t DumpiFile::type_size(int type) const {
  if (type < 0 || static_cast<std::size_t>(type) >= sizes_.size() ||
      sizes_[static_cast<std::size_t>(type)] <= 0)
    return -1;
  return sizes_[static_cast<std::size_t>(type)];
}

std::string DumpiFile::where(const DumpiRecord& r) const {
  std::string s = strprintf("%s: rank %d, record %llu (%s)", path_.c_str(), rank_,
                            static_cast<unsigned long long>(r.number), name(r.label).c_str());
  if (r.timed && first_ns_ >= 0)
    s += strprintf(" at %.9f s", static_cast<double>(r.start_ns - first_ns_) * 1e-9);
  return s;
}

void DumpiFile::fail(const DumpiRecord& r, const std::string& what) const {
  throw DumpiError(where(r) + ": " + what);
}

bool DumpiFile::next(DumpiRecord& r) {
  current_ = -1;
  if (pos_ + 2 > end_) return false;  // the stream ends at the footer
  const int label = static_cast<int>(u(2));
  if (label == kEndOfStream) return false;
  r = DumpiRecord{};
  r.label = current_ = label;
  r.number = ++number_;
  const unsigned mask = static_cast<unsigned>(u(1));
  if (mask & kThreadId) r.thread = static_cast<std::uint16_t>(u(2));
  auto time = [&](std::int64_t offset_s) {
    const auto s = static_cast<std::int64_t>(u(2)) + offset_s;
    return s * 1000000000 + static_cast<std::int64_t>(u(4));
  };
  if (mask & kCpuTime) (void)time(0), (void)time(0);  // CPU times: not used
  if (mask & kWallTime) {
    r.timed = true;
    r.start_ns = time(wall_offset_s_);
    r.stop_ns = time(wall_offset_s_);
    if (first_ns_ < 0) first_ns_ = r.start_ns;
  }
  if (mask & kCounters) {
    const auto counters = u(1);
    for (std::uint64_t i = 0; i < 2 * counters; ++i) (void)u(8);
  }
  // The header is every record's: what is known of a record whose fields are not.
  if (!readable(label))
    throw DumpiError(where(r) +
                     ": simmpi does not know the fields of this DUMPI record, so it cannot read "
                     "it or any after it (not implemented)");
  r.has_statuses = (mask & kStatusBits) != 0;
  const char* f = fields_by_label()[static_cast<std::size_t>(label)];
  std::size_t root = 0;
  bool only_at_root = false;
  for (; *f; ++f) {
    if (*f == '?') {
      only_at_root = true;
      continue;
    }
    const bool absent = only_at_root && !r.values.empty() && r.values[0] != r.values[root];
    only_at_root = false;
    switch (*f) {
      case 'i':
      case 'R':
        if (*f == 'R') root = r.values.size();
        r.values.push_back(absent ? 0 : static_cast<std::int32_t>(u(4)));
        break;
      case 'h':
        r.values.push_back(absent ? 0 : static_cast<std::int64_t>(u(2)));
        break;
      case 'b':
        r.values.push_back(static_cast<std::int64_t>(u(1)));
        break;
      case 'l':
        r.values.push_back(static_cast<std::int64_t>(u(8)));
        break;
      case 'a':
      case 'H': {
        std::vector<std::int32_t> a;
        if (!absent) {
          const auto n = u(4);
          if (n > (end_ - pos_) / (*f == 'a' ? 4 : 2)) truncated();
          for (std::uint64_t i = 0; i < n; ++i)
            a.push_back(static_cast<std::int32_t>(u(*f == 'a' ? 4 : 2)));
        }
        r.arrays.push_back(std::move(a));
        break;
      }
      case 's':
        if (r.has_statuses) {
          const auto n = static_cast<std::int32_t>(u(4));
          for (std::int32_t i = 0; i < n; ++i) {
            DumpiStatus s;
            s.bytes = static_cast<std::int32_t>(u(4));
            s.source = static_cast<std::int32_t>(u(4));
            (void)u(1), (void)u(1);  // cancelled, error
            s.tag = static_cast<std::int32_t>(u(4));
            r.statuses.push_back(s);
          }
        }
        break;
      case 'c': {
        const auto n = u(4);
        if (n > end_ - pos_) truncated();
        pos_ += n;
        break;
      }
      case 'v': {
        const auto argc = u(4);
        for (std::uint64_t i = 0; i < argc; ++i) {
          const auto n = u(4);
          if (n > end_ - pos_) truncated();
          pos_ += n;
        }
        break;
      }
    }
  }
  return true;
}

}  // namespace simmpi::replay
