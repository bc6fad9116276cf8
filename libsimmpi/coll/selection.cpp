// SPDX-License-Identifier: Apache-2.0
// The mpi.coll.* settings and the choice of a plan: a forced algorithm or the selected
// library's rule, with the parameters each library passes to its algorithms.
#include "libsimmpi/coll/selection.hpp"

#include <array>
#include <string>

#include "libsimmpi/core/tool_events.hpp"
#include "libsimmpi/core/world.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

struct AlgoName {
  Algo algo;
  const char* name;
};

// The names of mpi.coll.<collective> choices (runtime/config/options.cpp lists them with help).
constexpr AlgoName kAlgoNames[] = {
    {Algo::Auto, "auto"},
    {Algo::Linear, "linear"},
    {Algo::LinearNb, "linear_nb"},
    {Algo::LinearSync, "linear_sync"},
    {Algo::Dissemination, "dissemination"},
    {Algo::RecursiveDoubling, "recursive_doubling"},
    {Algo::Tree, "tree"},
    {Algo::Chain, "chain"},
    {Algo::Pipeline, "pipeline"},
    {Algo::SplitBinaryTree, "split_binary_tree"},
    {Algo::BinaryTree, "binary_tree"},
    {Algo::Binomial, "binomial"},
    {Algo::Knomial, "knomial"},
    {Algo::InOrderBinaryTree, "in_order_binary_tree"},
    {Algo::ScatterAllgather, "scatter_allgather"},
    {Algo::ScatterRingAllgather, "scatter_ring_allgather"},
    {Algo::Rabenseifner, "rabenseifner"},
    {Algo::Ring, "ring"},
    {Algo::SegmentedRing, "segmented_ring"},
    {Algo::Nonoverlapping, "nonoverlapping"},
    {Algo::Bruck, "bruck"},
    {Algo::NeighborExchange, "neighbor_exchange"},
    {Algo::Pairwise, "pairwise"},
    {Algo::Scattered, "scattered"},
    {Algo::RecursiveHalving, "recursive_halving"},
};

constexpr const char* kCollKeys[] = {
    "mpi.coll.barrier",        "mpi.coll.bcast",
    "mpi.coll.reduce",         "mpi.coll.allreduce",
    "mpi.coll.allgather",      "mpi.coll.allgatherv",
    "mpi.coll.alltoall",       "mpi.coll.alltoallv",
    "mpi.coll.gather",         "mpi.coll.gatherv",
    "mpi.coll.scatter",        "mpi.coll.scatterv",
    "mpi.coll.reduce_scatter", "mpi.coll.reduce_scatter_block",
    "mpi.coll.scan",           "mpi.coll.exscan",
};
static_assert(std::size(kCollKeys) == static_cast<std::size_t>(Coll::Count));

Algo parse_algo(const std::string& name, const char* key) {
  for (const AlgoName& a : kAlgoNames)
    if (name == a.name) return a.algo;
  SIMMPI_ASSERT(false, "%s=%s passed the registry's choices", key, name.c_str());
  return Algo::Auto;
}

struct Settings {
  const World* world = nullptr;
  Library library = Library::OpenMpi;
  std::array<Algo, static_cast<std::size_t>(Coll::Count)> forced{};
  std::size_t segment_bytes = 0;
  int chain_fanout = 4, radix = 4, throttle = 32;
};

const Settings& settings(World& w) {
  static Settings s;
  if (s.world == &w) return s;
  const runtime::Config& c = w.config();
  s.world = &w;
  s.library = c.text("mpi.coll.selection") == "mpich" ? Library::Mpich : Library::OpenMpi;
  for (std::size_t i = 0; i < s.forced.size(); ++i)
    s.forced[i] = parse_algo(c.text(kCollKeys[i]), kCollKeys[i]);
  s.segment_bytes = c.size_bytes("mpi.coll.segment_size");
  s.chain_fanout = static_cast<int>(c.integer("mpi.coll.chain_fanout"));
  s.radix = static_cast<int>(c.integer("mpi.coll.knomial_radix"));
  s.throttle = static_cast<int>(c.integer("mpi.coll.alltoall_throttle"));
  return s;
}

}  // namespace

const char* algo_name(Algo a) {
  for (const AlgoName& n : kAlgoNames)
    if (n.algo == a) return n.name;
  return "?";
}

CollPlan choose(World& w, Coll coll, const CollQuery& q) {
  const Settings& s = settings(w);
  CollPlan plan{s.forced[static_cast<std::size_t>(coll)]};
  plan.library = s.library;
  bool forced = plan.algo != Algo::Auto;
  if (!forced)
    plan.algo = s.library == Library::Mpich ? select_mpich(coll, q) : select_ompi(coll, q);
  plan.segment_bytes = s.segment_bytes;
  plan.radix = s.radix;
  plan.batch = s.throttle;
  // Open MPI's fixed rules ask for a chain with fan-out 0, which becomes one chain.
  plan.fanout = forced ? s.chain_fanout : 1;
  if (is_tool_event_wanted(ToolEvent::CollectiveAlgorithm))
    raise_tool_event(w, w.current_rank(), ToolEvent::CollectiveAlgorithm, w.now(),
                     {static_cast<int>(coll), static_cast<int>(plan.algo), q.size,
                      static_cast<std::int64_t>(q.bytes)});
  return plan;
}

}  // namespace simmpi::mpi
