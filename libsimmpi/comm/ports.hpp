// SPDX-License-Identifier: Apache-2.0
// The job's ports and published names (MPI-3.1 10.4): MPI_Open_port gives a name, the roots of
// MPI_Comm_accept and MPI_Comm_connect on it meet here (the first to arrive waits for the
// other), and MPI_Publish_name's table is one for the whole job, as a name server's would be.
//
// One Ports exists per simulated job, beside the World (the launcher owns both).
#pragma once

#include <deque>
#include <map>
#include <string>

#include "libsimmpi/core/world.hpp"

namespace simmpi::mpi {

class Ports {
 public:
  Ports();
  ~Ports();
  Ports(const Ports&) = delete;
  Ports& operator=(const Ports&) = delete;
  // The job's ports; SIMMPI_ASSERTs that they exist.
  static Ports& get();

  // A new port's name, "simmpi-port-K" (K counts from 0 in the order of the calls).
  std::string open();
  // False when `name` is not open.
  bool close(const std::string& name);
  bool is_open(const std::string& name) const { return ports_.count(name) != 0; }

  // The root of an accept (`accepting`) or connect on the open port `name`, world rank
  // `world_rank`: waits until the other side's root arrives (blocks the caller) and returns the
  // bridge between the two roots (the accepting root its rank 0). May yield.
  Communicator& meet(World& w, const std::string& name, bool accepting, int world_rank);

  // MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name; false when the service is
  // already published / not published.
  bool publish(const std::string& service, const std::string& port);
  const std::string* lookup(const std::string& service) const;
  bool unpublish(const std::string& service);

 private:
  struct Waiting {
    int world_rank;
    int process;
    std::string port;                // for the deadlock report
    Communicator* bridge = nullptr;  // set by the root that arrives second
  };
  struct Port {
    std::deque<Waiting*> acceptors, connectors;
  };
  static Ports* instance_;
  std::map<std::string, Port> ports_;
  int opened_ = 0;
  std::map<std::string, std::string> names_;
};

}  // namespace simmpi::mpi
