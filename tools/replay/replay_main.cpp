// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's program: each rank replays its file of the call trace (replayer.hpp). Run by
// the simmpi-replay script as `simmpi-replay.sim -n N [options] -- DIR N`; the last rank to
// finish says what makes the replay an approximation on another platform.
#include <simmpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/replay/replayer.hpp"

namespace {

// The ranks' notes added up (simmpi_process_state: one block for the run, not a channel
// between ranks; it is only read after every rank is done).
struct Totals {
  simmpi::replay::ReplayNotes notes;
  int done = 0;
};

void report(const std::string& directory, const Totals& t, int ranks) {
  std::fprintf(stderr, "simmpi-replay: %s: %d ranks replayed\n", directory.c_str(), ranks);
  const auto& n = t.notes;
  if (n.wildcards == 0 && n.polls == 0 && n.cancels == 0) return;
  std::fprintf(
      stderr,
      "simmpi-replay: the trace holds %lld receives or probes from MPI_ANY_SOURCE or "
      "with MPI_ANY_TAG, %lld tests, probes or waits for any and %lld cancellations: the "
      "program's pattern may depend on timing. The replay follows the recorded matching and "
      "completions; %lld outcomes differed from the recording's%s\n",
      static_cast<long long>(n.wildcards), static_cast<long long>(n.polls),
      static_cast<long long>(n.cancels), static_cast<long long>(n.differed),
      n.differed ? " (on this platform the program itself could have taken another path)" : "");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "simmpi-replay.sim: run it through simmpi-replay DIR [options]\n");
    return 2;
  }
  const std::string directory = argv[1];
  const int ranks = std::atoi(argv[2]);
  const int rank = simmpi_rank();
  try {
    simmpi::replay::Replayer replayer(directory, rank, ranks);
    replayer.run();
    auto* totals =
        static_cast<Totals*>(simmpi_process_state("simmpi-replay totals", sizeof(Totals)));
    totals->notes.wildcards += replayer.notes().wildcards;
    totals->notes.polls += replayer.notes().polls;
    totals->notes.cancels += replayer.notes().cancels;
    totals->notes.differed += replayer.notes().differed;
    if (++totals->done == ranks) report(directory, *totals, ranks);
  } catch (const simmpi::replay::TraceError& e) {
    std::fprintf(stderr, "simmpi-replay: error: %s\n", e.what());
    std::fflush(stderr);
    _exit(2);  // at once: the other ranks would wait for this one's calls
  }
  return 0;
}
