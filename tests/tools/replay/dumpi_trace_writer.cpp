// SPDX-License-Identifier: Apache-2.0
// NOT DUMPI's library: a writer of our own that mirrors DUMPI's binary format (as sst-dumpi's
// dumpi/common/io.c, iodefs.h and dumpiio.c write it), so that the tests of simmpi's DUMPI
// reader run where libdumpi is not installed (it is not in Debian). Traces made by libdumpi
// itself are checked by dumpi_native_test.sh when it is given one.
//
//   dumpi_trace_writer PREFIX [pingpong|rma|spawn|truncated]
// writes PREFIX.meta, PREFIX-0000.bin and PREFIX-0001.bin: two ranks exchanging one 8-byte
// message each way (MPI_DOUBLE), rank 0 computing 2 ms before its send, rank 1 4 ms between its
// receive (from MPI_ANY_SOURCE, matched by its status) and its send, as dumpi_replay_test.sh
// computes by hand. "rma" adds an MPI_Win_fence (a record simmpi reads but does not replay) to
// rank 1 after its receive; "spawn" an MPI_Comm_spawn (a record whose fields simmpi does not
// know); "truncated" cuts rank 1's file short.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// DUMPI's labels (dumpi/common/funclabels.h) and constants used here.
constexpr int kSend = 0, kRecv = 1, kCommSpawn = 135, kInit = 124, kFinalize = 125, kWinFence = 146,
              kAllFunctions = 290, kEndOfStream = 293;
constexpr int kDouble = 14, kCommWorld = 2, kAnySource = -1;
constexpr std::uint64_t kHeadMagic = (std::uint64_t{0xffaadd44} << 32) | 0x554d5049;
constexpr std::uint64_t kFootMagic = 0xf007fee7;
// The record mask: statuses, CPU and wall times, a thread id.
constexpr int kMask = 0x3 | 0x4 | 0x8 | 0x40;
constexpr std::int64_t kWallOffsetS = 1000;  // the rank's first second, as libdumpi keeps it

struct Out {
  std::vector<unsigned char> b;
  void put(std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
  }
  void time(std::int64_t ns) {  // 16-bit seconds since the offset, 32-bit nanoseconds
    put(static_cast<std::uint64_t>(ns / 1000000000 - kWallOffsetS), 2);
    put(static_cast<std::uint64_t>(ns % 1000000000), 4);
  }
  // A record's header: label, mask, thread, CPU times (zero), wall times.
  void record(int label, std::int64_t start_ns, std::int64_t stop_ns) {
    put(label, 2);
    put(kMask, 1);
    put(0, 2);
    put(0, 2), put(0, 4), put(0, 2), put(0, 4);
    time(start_ns), time(stop_ns);
  }
  void status(int bytes, int source, int tag) {
    put(1, 4);
    put(static_cast<std::uint32_t>(bytes), 4), put(static_cast<std::uint32_t>(source), 4);
    put(0, 1), put(0, 1), put(static_cast<std::uint32_t>(tag), 4);
  }
};

constexpr std::int64_t ms(double t) {
  return static_cast<std::int64_t>(t * 1e6) + kWallOffsetS * 1000000000;
}

bool write_rank(const std::string& prefix, int rank, const std::string& variant) {
  Out o;
  o.put(kHeadMagic, 8);
  const std::uint64_t body = o.b.size();
  o.put(0, 4), o.put(static_cast<std::uint64_t>(kWallOffsetS), 4);  // CPU and wall offsets
  o.record(kInit, ms(0), ms(0.1));
  o.put(0, 4);  // argc
  const int peer = 1 - rank;
  auto send = [&](double start, double stop) {
    o.record(kSend, ms(start), ms(stop));
    o.put(1, 4), o.put(kDouble, 2), o.put(peer, 4), o.put(5, 4), o.put(kCommWorld, 2);
  };
  auto recv = [&](double start, double stop) {
    o.record(kRecv, ms(start), ms(stop));
    o.put(1, 4), o.put(kDouble, 2), o.put(static_cast<std::uint32_t>(kAnySource), 4);
    o.put(5, 4), o.put(kCommWorld, 2);
    o.status(8, peer, 5);
  };
  if (rank == 0) {
    send(2.1, 2.2);  // 2 ms after MPI_Init
    recv(2.2, 6.3);
    o.record(kFinalize, ms(6.3), ms(6.4));
  } else {
    recv(0.1, 2.2);
    if (variant == "rma") {
      o.record(kWinFence, ms(2.2), ms(2.7));  // its 0.5 ms count as compute when skipped
      o.put(0, 1), o.put(1, 2);               // assertion, window
    } else if (variant == "spawn") {
      o.record(kCommSpawn, ms(2.2), ms(2.7));
    }
    send(6.2, 6.3);  // 4 ms after the receive
    o.record(kFinalize, ms(6.3), ms(6.4));
  }
  o.put(kEndOfStream, 2);
  const std::uint64_t header = o.b.size();
  o.put(0, 1), o.put(8, 1), o.put(0, 1);  // version 0.8.0
  o.put(0, 8);                            // start time
  o.put(0, 2), o.put(0, 2);               // host and user names
  o.put(0, 4);                            // mesh dimensions
  const std::uint64_t footer = o.b.size();
  o.put(kFootMagic, 8);
  for (int i = 0; i < 2 * (kAllFunctions + 1); ++i) o.put(0, 4);  // call and ignored counts
  const std::uint64_t keyval = o.b.size();
  o.put(0, 4);
  const std::uint64_t perflbl = o.b.size();
  o.put(0, 4);
  const std::uint64_t sizes = o.b.size();
  o.put(kDouble + 1, 4);
  for (int t = 0; t <= kDouble; ++t) o.put(t == kDouble ? 8 : 0, 4);
  o.put(kHeadMagic, 8);
  for (std::uint64_t v : {sizes, std::uint64_t{0}, perflbl, header, body, footer, keyval})
    o.put(v, 8);
  if (variant == "truncated" && rank == 1) o.b.resize(o.b.size() - 70);
  char name[64];
  std::snprintf(name, sizeof name, "-%04d.bin", rank);
  std::FILE* f = std::fopen((prefix + name).c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(o.b.data(), 1, o.b.size(), f) == o.b.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: dumpi_trace_writer PREFIX [pingpong|rma|spawn|truncated]\n");
    return 2;
  }
  const std::string prefix = argv[1], variant = argc > 2 ? argv[2] : "pingpong";
  std::FILE* meta = std::fopen((prefix + ".meta").c_str(), "w");
  if (!meta) return 1;
  std::fprintf(meta,
               "hostname=test\nnumprocs=2\nusername=test\nstartime=0\nfileprefix=%s\n"
               "version=0\nsubversion=8\nsubsubversion=0\n",
               prefix.c_str());
  std::fclose(meta);
  return write_rank(prefix, 0, variant) && write_rank(prefix, 1, variant) ? 0 : 1;
}
