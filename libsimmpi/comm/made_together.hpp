// SPDX-License-Identifier: Apache-2.0
// Objects that the members of a communicator make together in one collective call
// (MPI_File_open, MPI_Win_create and its siblings): the first member to arrive makes the object,
// the others take the same one, and the communicator is forgotten when the last has taken it.
#pragma once

#include <unordered_map>

namespace simmpi::mpi {

class Communicator;

template <class T>
class MadeTogether {
 public:
  // The object being made on `comm` (a communicator private to this creation, so that one
  // creation at a time is under way on it): make() when this is the first member to arrive,
  // which *first says.
  template <class Make>
  T& take(const Communicator& comm, int members, Make&& make, bool* first = nullptr) {
    auto it = making_.find(&comm);
    if (first) *first = it == making_.end();
    if (it == making_.end()) it = making_.emplace(&comm, Making{&make(), members}).first;
    T& made = *it->second.made;
    if (--it->second.takers_left == 0) making_.erase(it);
    return made;
  }
  // The members that have not yet taken the object being made on `comm`.
  int takers_left(const Communicator& comm) const {
    auto it = making_.find(&comm);
    return it == making_.end() ? 0 : it->second.takers_left;
  }

 private:
  struct Making {
    T* made;
    int takers_left;
  };
  std::unordered_map<const Communicator*, Making> making_;
};

}  // namespace simmpi::mpi
