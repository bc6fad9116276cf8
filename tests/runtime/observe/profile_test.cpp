// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/profile.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace simmpi::runtime {
namespace {

CallFacts facts(const char* name, int rank, std::int64_t ps, int context = -1) {
  CallFacts f;
  f.name = name;
  f.rank = f.process = rank;
  f.end = SimTime::from_ps(ps);
  f.bytes = 8;
  f.comm_context = context;
  f.comm_leader = context < 0 ? -1 : 0;
  f.comm_size = 2;
  return f;
}

// The profile finds a call's function by its name's address: the same name at many addresses
// (more than its table's slots, so some share one) and other names between them still add up
// per name.
TEST(Profile, OneFunctionPerNameWhateverTheAddress) {
  std::vector<std::array<char, 16>> sends(600, {"MPI_Send"});
  Profile p(2);
  for (int round = 0; round < 3; ++round)
    for (std::size_t i = 0; i < sends.size(); ++i) {
      p.call(facts(sends[i].data(), static_cast<int>(i % 2), 10));
      p.call(facts("MPI_Recv", static_cast<int>(i % 2), 1));
    }
  p.finish({SimTime::from_ps(1000000), SimTime::from_ps(1000000)});
  const std::string json = p.json();
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"name\": \"MPI_Send\", \"calls\": 1800, \"bytes\": 14400, \"time\": "
                      "0.000000018000",
                      json);
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"name\": \"MPI_Recv\", \"calls\": 1800, \"bytes\": 14400, \"time\": "
                      "0.000000001800",
                      json);
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"rank\": 0, \"end\": 0.000001000000, \"own_code\": 0.000000990100, "
                      "\"mpi\": 0.000000009900, \"blocked\": 0.000000000000, \"calls\": 1800}",
                      json);
}

// Calls alternating between two communicators count on each; a rank's call after its
// MPI_Comm_set_name shows the new name, the rename itself the old one.
TEST(Profile, CommunicatorsAndTheirNames) {
  const std::string world = "MPI_COMM_WORLD", renamed = "halves";
  Profile p(2);
  for (int i = 0; i < 5; ++i) {
    CallFacts a = facts("MPI_Send", 0, 3, 0), b = facts("MPI_Send", 0, 5, 4);
    a.comm_name = b.comm_name = &world;
    p.call(a);
    p.call(b);
  }
  CallFacts set = facts("MPI_Comm_set_name", 0, 0, 4), after = facts("MPI_Barrier", 0, 7, 4);
  set.comm_name = &world;
  after.comm_name = &renamed;
  p.call(set);
  p.call(after);
  p.finish({SimTime::from_ps(100), SimTime::from_ps(100)});
  const std::string json = p.json();
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"context\": 4, \"first_rank\": 0, \"name\": \"halves\", \"size\": 2, "
                      "\"calls\": 7, \"bytes\": 56, \"time\": 0.000000000032",
                      json);
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"context\": 0, \"first_rank\": 0, \"name\": \"MPI_COMM_WORLD\", "
                      "\"size\": 2, \"calls\": 5, \"bytes\": 40, \"time\": 0.000000000015",
                      json);
}

// A function's cell keeps the communicator of its calls and counts on it at the end: a rank's
// send after its MPI_Comm_set_name, on the cell that sent before it, still shows the new name,
// and a communicator made again with the same context and rank 0 but another size shows the
// later size; each keeps every call's figures. Rank 1 renames nothing: its sends before and
// after rank 0's rename stay on its cell.
TEST(Profile, CellsKeepTheirCommunicator) {
  const std::string old_name = "pair", new_name = "renamed";
  Profile p(2);
  auto on = [&](const char* name, int rank, std::int64_t ps, const std::string& comm_name) {
    CallFacts f = facts(name, rank, ps, 6);
    f.comm_name = &comm_name;
    return f;
  };
  for (int i = 0; i < 3; ++i) {
    p.call(on("MPI_Send", 0, 1, old_name));
    p.call(on("MPI_Send", 1, 2, old_name));
  }
  p.call(on("MPI_Comm_set_name", 0, 4, old_name));
  p.call(on("MPI_Send", 1, 8, old_name));
  p.call(on("MPI_Send", 0, 16, new_name));
  CallFacts bigger = on("MPI_Send", 1, 32, new_name);
  bigger.comm_size = 3;
  p.call(bigger);
  p.finish({SimTime::from_ps(100), SimTime::from_ps(100)});
  const std::string json = p.json();
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"context\": 6, \"first_rank\": 0, \"name\": \"renamed\", \"size\": 3, "
                      "\"calls\": 10, \"bytes\": 80, \"time\": 0.000000000069",
                      json);
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"name\": \"MPI_Send\", \"calls\": 9, \"bytes\": 72, \"time\": "
                      "0.000000000065",
                      json);
}

// A rank's threads' calls count under their functions, not in the rank's own MPI time (they
// overlap its code).
TEST(Profile, ThreadCallsApartFromTheRanks) {
  Profile p(1);
  CallFacts own = facts("MPI_Send", 0, 4), thread = facts("MPI_Send", 0, 30);
  thread.ordinal = 1;
  thread.blocked = SimTime::from_ps(20);
  p.call(own);
  p.call(thread);
  p.call(own);
  p.finish({SimTime::from_ps(100)});
  const std::string json = p.json();
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"rank\": 0, \"end\": 0.000000000100, \"own_code\": 0.000000000092, "
                      "\"mpi\": 0.000000000008, \"blocked\": 0.000000000000, \"calls\": 2}",
                      json);
  EXPECT_PRED_FORMAT2(::testing::IsSubstring,
                      "{\"name\": \"MPI_Send\", \"calls\": 3, \"bytes\": 24, \"time\": "
                      "0.000000000038, \"blocked\": 0.000000000020",
                      json);
}

}  // namespace
}  // namespace simmpi::runtime
