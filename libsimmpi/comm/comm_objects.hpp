// SPDX-License-Identifier: Apache-2.0
// What the communicator layer keeps for each rank (a process, in MPI's terms): its groups,
// attribute keys and values, error handlers, error classes and codes, and the context ids it
// still has free. Handles index per-rank tables, so a program that creates objects in the same
// order on every rank gets the same handle values everywhere, as with a real MPI.
//
// One CommObjects exists per simulated job, beside the World (the launcher owns both).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsimmpi/comm/group.hpp"
#include "libsimmpi/comm/handle_table.hpp"

namespace simmpi::mpi {

struct Keyval {
  MPI_Comm_copy_attr_function* copy;
  MPI_Comm_delete_attr_function* del;
  void* extra_state;
  bool freed = false;  // MPI_Comm_free_keyval was called; it lives on while attributes use it
  int uses = 0;        // attributes set with it
};

struct UserErrhandler {
  MPI_Comm_errhandler_function* fn;
};

// An MPI_Session of the rank (MPI-4.1 11.3), until MPI_Session_finalize.
struct Session {
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  MPI_Comm_errhandler_function* errhandler_fn = nullptr;  // a user handler's function
  std::string thread_level = "MPI_THREAD_MULTIPLE";       // what its info asked, as granted
};

// An error class or code made by MPI_Add_error_class/code.
struct UserError {
  int error_class;  // itself for a class
  std::string text;
  bool has_text = false;  // set by MPI_Add_error_string, cleared by MPI_Remove_error_string
  bool removed = false;   // by MPI_Remove_error_class or _code: the value names nothing now
  int live_codes = 0;     // of a class: its codes not removed (MPI_Remove_error_class checks it)
};

// The first value MPI_Add_error_class/code hands out (above MPI_ERR_LASTCODE, as MPI wants).
constexpr int kFirstUserError = MPI_ERR_LASTCODE + 1;

struct RankObjects {
  HandleTable<Group> groups{SIMMPI_KIND_GROUP, 2};  // 1 is MPI_GROUP_EMPTY
  HandleTable<Keyval> keyvals{SIMMPI_KIND_KEYVAL, 1};
  HandleTable<Session> sessions{SIMMPI_KIND_SESSION, 1};               // 0 is MPI_SESSION_NULL
  HandleTable<UserErrhandler> errhandlers{SIMMPI_KIND_ERRHANDLER, 4};  // 1 to 3 predefined
  std::vector<UserError> errors;                                       // value kFirstUserError + i
  int last_used_code = MPI_ERR_LASTCODE;
  // Attribute values by (object, keyval), with the order they were set in; the object is the
  // Communicator view, or the Datatype, they are cached on (a window's is its private
  // communicator). Deleting an object's attributes goes in reverse (MPI-3.1 8.7.1 asks so of
  // MPI_COMM_SELF's at MPI_Finalize).
  struct Attribute {
    void* value;
    std::uint64_t set_order;
  };
  std::map<std::pair<const void*, int>, Attribute> attributes;
  std::uint64_t attributes_set = 0;
  std::vector<std::uint32_t> free_contexts;  // bit k: context id 2k is free; sized on first use
  // The parents' contexts of this rank's overlapping context agreements in progress
  // (agree_context_overlapping), one entry each.
  std::vector<int> overlapping_agreements;
};

class CommObjects {
 public:
  // For world ranks [0, slots); `universe_size` is MPI_UNIVERSE_SIZE.
  CommObjects(int slots, int universe_size);
  ~CommObjects();
  CommObjects(const CommObjects&) = delete;
  CommObjects& operator=(const CommObjects&) = delete;
  // The job's objects; SIMMPI_ASSERTs that they exist.
  static CommObjects& get();

  // A rank's objects, made on its first use: most ranks of a big job never need them.
  RankObjects& rank(int world_rank);
  // The rank's objects if it has any, else nullptr (queries need not make them).
  RankObjects* find_rank(int world_rank) {
    return ranks_[static_cast<std::size_t>(world_rank)].get();
  }
  // MPI_UNIVERSE_SIZE: the ranks the job started with and the slots reserved for
  // MPI_Comm_spawn (mpi.spawn_slots), addressable as an attribute.
  const int* universe_size() const { return &universe_size_; }

 private:
  static CommObjects* instance_;
  std::vector<std::unique_ptr<RankObjects>> ranks_;
  int universe_size_;
};

}  // namespace simmpi::mpi
