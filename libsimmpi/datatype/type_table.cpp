// SPDX-License-Identifier: Apache-2.0
// Per-rank handle tables of derived datatypes.
#include "libsimmpi/datatype/type_table.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

constexpr std::uint32_t kFirst = SIMMPI_PREDEFINED_TYPES;
constexpr std::size_t kReuseAfter = 32;  // freed slots waiting before the oldest is reused

std::uint32_t slot_of(MPI_Datatype h) {
  return (static_cast<unsigned>(h) & 0xFFFFFFu) - kFirst;
}

}  // namespace

MPI_Datatype TypeTable::add(int rank, TypeRef t) {
  SIMMPI_ASSERT(rank >= 0, "derived datatypes are created by ranks");
  if (static_cast<std::size_t>(rank) >= ranks_.size())
    ranks_.resize(static_cast<std::size_t>(rank) + 1);
  RankTypes& r = ranks_[static_cast<std::size_t>(rank)];
  std::uint32_t slot;
  if (r.free_slots.size() - r.free_head > kReuseAfter) {
    slot = r.free_slots[r.free_head++];
    if (r.free_head * 2 > r.free_slots.size()) {  // drop the used half now and then
      r.free_slots.erase(r.free_slots.begin(),
                         r.free_slots.begin() + static_cast<std::ptrdiff_t>(r.free_head));
      r.free_head = 0;
    }
  } else {
    slot = static_cast<std::uint32_t>(r.slots.size());
    SIMMPI_ASSERT(slot + kFirst < 0xFFFFFFu, "rank %d holds more than 16M datatype handles", rank);
    r.slots.emplace_back();
  }
  r.slots[slot] = std::move(t);
  return SIMMPI_TYPE(slot + kFirst);
}

const Datatype* TypeTable::find(int rank, MPI_Datatype h) const {
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size()) return nullptr;
  if ((static_cast<unsigned>(h) >> 24) != SIMMPI_KIND_DATATYPE) return nullptr;
  if ((static_cast<unsigned>(h) & 0xFFFFFFu) < kFirst) return nullptr;
  const RankTypes& r = ranks_[static_cast<std::size_t>(rank)];
  std::uint32_t slot = slot_of(h);
  return slot < r.slots.size() ? r.slots[slot].get() : nullptr;
}

bool TypeTable::remove(int rank, MPI_Datatype h) {
  if (!find(rank, h)) return false;
  RankTypes& r = ranks_[static_cast<std::size_t>(rank)];
  r.slots[slot_of(h)] = TypeRef();
  r.free_slots.push_back(slot_of(h));
  return true;
}

TypeTable& type_table() {
  static TypeTable table;
  return table;
}

}  // namespace simmpi::mpi
