// SPDX-License-Identifier: Apache-2.0
// The job's ports and name table.
#include "libsimmpi/comm/ports.hpp"

#include <memory>
#include <string>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

Ports* Ports::instance_ = nullptr;

Ports::Ports() {
  instance_ = this;
}

Ports::~Ports() {
  if (instance_ == this) instance_ = nullptr;
}

Ports& Ports::get() {
  SIMMPI_ASSERT(instance_, "the ports exist while a job runs");
  return *instance_;
}

std::string Ports::open() {
  std::string name = "simmpi-port-" + std::to_string(opened_++);
  ports_[name];
  return name;
}

bool Ports::close(const std::string& name) {
  return ports_.erase(name) != 0;
}

Communicator& Ports::meet(World& w, const std::string& name, bool accepting, int world_rank) {
  Port& port = ports_.at(name);
  auto& others = accepting ? port.connectors : port.acceptors;
  if (!others.empty()) {
    Waiting* other = others.front();
    others.pop_front();
    const int acceptor = accepting ? world_rank : other->world_rank;
    const int connector = accepting ? other->world_rank : world_rank;
    other->bridge = &w.keep_comm(std::make_unique<Communicator>(
        MPI_COMM_NULL, w.next_bridge_context(), std::vector<int>{acceptor, connector},
        "the bridge of port " + name));
    w.scheduler().wake(w.scheduler().process(other->process), w.now());
    return *other->bridge;
  }
  Waiting me{world_rank, w.scheduler().current()->id(), name};
  (accepting ? port.acceptors : port.connectors).push_back(&me);
  const runtime::WaitReason why{accepting ? "MPI_Comm_accept" : "MPI_Comm_connect",
                                [](const void* waiting) {
                                  return "port " + static_cast<const Waiting*>(waiting)->port +
                                         ", for the other side's root";
                                },
                                &me};
  while (!me.bridge) w.scheduler().block(why);
  return *me.bridge;
}

bool Ports::publish(const std::string& service, const std::string& port) {
  return names_.emplace(service, port).second;
}

const std::string* Ports::lookup(const std::string& service) const {
  auto it = names_.find(service);
  return it == names_.end() ? nullptr : &it->second;
}

bool Ports::unpublish(const std::string& service) {
  return names_.erase(service) != 0;
}

}  // namespace simmpi::mpi
