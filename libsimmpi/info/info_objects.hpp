// SPDX-License-Identifier: Apache-2.0
// MPI_Info objects (MPI-3.1 chapter 9): ordered lists of (key, value) strings, one handle table
// per rank, so that a program creating infos in the same order on every rank gets the same
// handles everywhere. MPI_INFO_ENV is each rank's read-only description of how it was started.
//
// One InfoObjects exists per simulated job, beside the World (the launcher owns both).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsimmpi/comm/handle_table.hpp"

namespace simmpi::mpi {

struct Info {
  std::vector<std::pair<std::string, std::string>> entries;  // in the order keys were first set

  // The entry of `key`, or nullptr.
  const std::pair<std::string, std::string>* find(const std::string& key) const;
  void set(const std::string& key, const std::string& value);
  // False if `key` had no entry.
  bool erase(const std::string& key);
};

class InfoObjects {
 public:
  explicit InfoObjects(int ranks);
  ~InfoObjects();
  InfoObjects(const InfoObjects&) = delete;
  InfoObjects& operator=(const InfoObjects&) = delete;
  // The job's infos; SIMMPI_ASSERTs that they exist.
  static InfoObjects& get();

  MPI_Info add(int world_rank, Info info);
  // The info `h` names for `world_rank` (MPI_INFO_ENV included), or nullptr.
  const Info* find(int world_rank, MPI_Info h);
  // The same for one the rank may change: nullptr for MPI_INFO_ENV.
  Info* find_mutable(int world_rank, MPI_Info h);
  void remove(int world_rank, MPI_Info h);
  // A copy of MPI_INFO_ENV's entries for `world_rank` (MPI_Info_create_env starts from it).
  Info environment(int world_rank);

 private:
  struct RankInfos {
    HandleTable<Info> table{SIMMPI_KIND_INFO, 2};  // 1 is MPI_INFO_ENV
    std::unique_ptr<Info> env;                     // made on first use
  };
  RankInfos& rank(int world_rank);

  static InfoObjects* instance_;
  std::vector<std::unique_ptr<RankInfos>> ranks_;
};

}  // namespace simmpi::mpi
