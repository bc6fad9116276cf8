// SPDX-License-Identifier: Apache-2.0
// Files opened with MPI_File_open (MPI-3.1 chapter 13). A file is one object shared by the
// processes that opened it together (the simulator is one address space), like a window; what
// differs per process (its view, its individual file pointer, its error handler, its split
// collective in progress) is indexed by its rank in the file's group.
//
// The data is real: the file is the host file at the program's path, opened once for all its
// members, and every access reads or writes it at once (libsimmpi/io/host_data.hpp); what takes
// simulated time is the storage model's requests (hardware/storage/), which the calls wait for.
// Each file owns a private communicator, a duplicate of the one it was opened on (as ROMIO
// does), for the collectives and messages of its own calls.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hardware/storage/storage_model.hpp"
#include "libsimmpi/comm/handle_table.hpp"
#include "libsimmpi/comm/made_together.hpp"
#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

// How a process sees the file (MPI_File_set_view): data starts at byte `disp`, is made of
// `etype` elements, laid out as `filetype` tiled from disp.
struct FileView {
  MPI_Offset disp = 0;
  TypeRef etype;
  TypeRef filetype;
  MPI_Datatype etype_handle = MPI_BYTE;  // what MPI_File_get_view hands back
  MPI_Datatype filetype_handle = MPI_BYTE;
  std::string datarep = "native";
};

// `len` bytes of an access's packed data stream, from byte `packed` on, lie at file byte
// `offset`. A view's segments come in increasing file order (its filetype's displacements are
// nondecreasing).
struct FileSegment {
  std::uint64_t packed;
  std::int64_t offset;
  std::uint64_t len;
};

// One collective access of a file (MPI_File_write_all...) as its members bring it, kept by the
// file under the call's number until the last member is done: the two-phase algorithm of every
// member reads the others' segments here, as ROMIO's processes learn them from each other's
// offset lists.
struct CollectiveAccess {
  std::vector<std::vector<FileSegment>> segments;  // by member
  int left;                                        // members not done with it
  MPI_Offset shared_base = 0;  // the shared pointer when the first member entered (ordered)
};

// A split collective (MPI_File_read_all_begin ... _end) a process has begun and not ended.
struct SplitCollective {
  const char* begun_by = nullptr;  // nullptr: none
  Request* request = nullptr;
  const void* buf = nullptr;
};

struct FileMember {
  FileView view;
  MPI_Offset position = 0;  // the individual file pointer, in etypes of the view
  MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
  MPI_Comm_errhandler_function* errhandler_fn = nullptr;
  SplitCollective split;
  bool closed = false;
};

class File {
 public:
  File(MPI_File handle, Communicator& comm, std::string path);
  ~File();

  MPI_File handle() const { return handle_; }
  Communicator& comm() { return comm_; }
  int size() const { return comm_.size(); }
  FileMember& member(int comm_rank) { return members_[static_cast<std::size_t>(comm_rank)]; }
  const std::string& path() const { return path_; }

  // Set by the member that opens the host file (the first to arrive); the others check their
  // arguments against these.
  int fd = -1;
  int amode = 0;
  int open_error = MPI_SUCCESS;  // the host's refusal, as an MPI error class
  std::string open_detail;       // and its words
  hardware::Striping striping;
  std::vector<std::pair<std::string, std::string>> hints;  // MPI_File_get_info's answer
  bool atomic = false;
  bool deleted = false;  // by MPI_MODE_DELETE_ON_CLOSE, at the close
  // Collective buffering as ROMIO does it: the aggregators (comm ranks, the first member on each
  // node, at most cb_nodes of them) and the bytes each handles per round (cb_buffer_size).
  std::vector<int> aggregators;
  std::uint64_t cb_buffer_bytes = 0;
  MPI_Offset shared_position = 0;  // the shared file pointer, in etypes of the views
  // Collective accesses in progress, by their number on the private communicator.
  std::unordered_map<std::uint32_t, std::unique_ptr<CollectiveAccess>> collectives;

  // A member left the file (MPI_File_close); true when it was the last.
  bool leave(int comm_rank);

 private:
  MPI_File handle_;
  Communicator& comm_;
  std::string path_;
  std::vector<FileMember> members_;
  int live_members_;
};

// The job's open files by handle (the same handle on every member), the file system's layout
// of the files it made (a file keeps the striping it was created with), and each process's
// default file error handler (MPI_FILE_NULL's, MPI_ERRORS_RETURN unless set).
class Files {
 public:
  Files(const runtime::Config& config, int ranks);
  ~Files();
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;
  static Files& get();

  // The file `h` names, or nullptr.
  File* find(MPI_File h);
  // The file being opened on private communicator `comm` by its members: the first caller makes
  // it (registering a handle) and *first is set; the others find it.
  File& take(Communicator& comm, const std::string& path, bool* first);
  // Destroys `f` and frees its handle (its last member left, or the open failed and every
  // member has seen it).
  void remove(File* f);
  // The members that have not yet taken a file being opened.
  int takers_left(const Communicator& comm) const { return making_.takers_left(comm); }

  // The striping of the host file `key` (device and inode), if the file system made it.
  const hardware::Striping* layout(const std::string& key) const;
  void set_layout(const std::string& key, const hardware::Striping& s) { layouts_[key] = s; }
  void forget_layout(const std::string& key) { layouts_.erase(key); }

  // The bytes the ranks' writes have put on the host's disk, against io.max_host_bytes.
  std::uint64_t host_bytes_written = 0;
  std::uint64_t max_host_bytes() const { return max_host_bytes_; }

  MPI_Errhandler& default_errhandler(int world_rank) {
    return defaults_[static_cast<std::size_t>(world_rank)].first;
  }
  MPI_Comm_errhandler_function*& default_errhandler_fn(int world_rank) {
    return defaults_[static_cast<std::size_t>(world_rank)].second;
  }

 private:
  static Files* instance_;
  std::uint64_t max_host_bytes_;
  HandleTable<std::unique_ptr<File>> table_{SIMMPI_KIND_FILE, 1};  // 0 is MPI_FILE_NULL
  MadeTogether<File> making_;
  std::map<std::string, hardware::Striping> layouts_;
  std::vector<std::pair<MPI_Errhandler, MPI_Comm_errhandler_function*>> defaults_;
};

}  // namespace simmpi::mpi
