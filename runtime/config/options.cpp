// SPDX-License-Identifier: Apache-2.0
// Every configuration key of simmpi, in one table. The defaults together are the embedded
// default platform: a generic cluster of one-rank nodes on a single 100 Gb/s switch.
#include "runtime/config/options.hpp"

#include <algorithm>

namespace simmpi::runtime {

namespace {
// Choices shared by several mpi.coll keys.
const ChoiceDef kAuto{"auto", "the rule of mpi.coll.selection"};
const std::vector<ChoiceDef> kAllgatherChoices = {
    kAuto,
    {"linear", "gather to rank 0, then broadcast"},
    {"bruck", "lg p rounds of growing blocks to rank - 2^k"},
    {"recursive_doubling", "exchanges with rank ^ 2^k (Bruck for p not a power of 2)"},
    {"ring", "p - 1 steps around a ring"},
    {"neighbor_exchange", "p/2 exchanges with alternating neighbours (ring for p odd)"}};
const ChoiceDef kAlltoallLinear{"linear", "all sends and receives posted at once"};
const ChoiceDef kAlltoallPairwise{"pairwise", "p - 1 steps, to rank + i and from rank - i"};
const ChoiceDef kAlltoallScattered{"scattered",
                                   "linear in batches of mpi.coll.alltoall_throttle peers"};
const ChoiceDef kScatterLinear{"linear", "the root sends to one rank after the other"};
const ChoiceDef kScatterLinearNb{"linear_nb", "the root posts all sends at once"};
const std::vector<ChoiceDef> kReduceScatterChoices = {
    kAuto,
    {"nonoverlapping", "reduce to rank 0, then scatter"},
    {"recursive_halving", "lg p exchanges of halves of the remaining vector"},
    {"pairwise", "p - 1 exchanges of one block with rank + i and rank - i"},
    {"ring", "p - 1 steps of partial blocks around a ring"}};
const std::vector<ChoiceDef> kScanChoices = {
    kAuto,
    {"linear", "a chain from rank 0 to rank p - 1"},
    {"recursive_doubling", "lg p exchanges with rank ^ 2^k"}};
}  // namespace

const std::vector<OptionSpec>& option_registry() {
  // One option per entry, its fields laid out as a table.
  // clang-format off
  static const std::vector<OptionSpec> registry = {
      // --- runtime: fibers, privatization, clocks ---
      {"runtime.stack_size", Kind::Size, "256KiB",
       "Stack of each rank's fiber. Only touched pages cost memory. Raise it when a rank "
       "overflows (deep recursion, large local arrays).",
       {}, 16384, 1099511627776.0},
      {"runtime.stack_guards", Kind::Integer, "16384",
       "How many ranks get an inaccessible guard page below their stack (an overflow is caught "
       "at once). Each guard costs two of the kernel's 65,530 memory mappings; ranks beyond this "
       "budget get a canary that is checked at every switch instead.",
       {}, 0, 30000},
      {"runtime.privatize", Kind::Choice, "auto",
       "How each rank gets its own copy of the program's global, static and thread-local "
       "variables (the executable's and those of the libraries runtime.privatize_libs selects).",
       {{"auto", "copy for data segments up to 16 KiB, mmap above (the measured crossover: "
                 "tools/bench/spine_bench)"},
        {"copy", "memcpy each writable data segment and thread-local block in and out when "
                 "another rank starts running (fast for the usual small segments)"},
        {"mmap", "map the rank's own pages of a memory file over each data segment (one system "
                 "call per segment and switch, independent of its size); thread-local blocks "
                 "are still copied"},
        {"none", "all ranks share the globals (only for programs that have none that differ)"}}},
      {"runtime.privatize_libs", Kind::Text, "",
       "Shared libraries whose state (writable data and thread-local variables) each rank gets "
       "its own copy of, besides the executable's, as a comma-separated list of names: "
       "\"libfoo\" adds libfoo.so* (even from a system directory), \"-libfoo\" excludes it. "
       "By default every library the program brings is privatized, linked or dlopened, except "
       "those under /lib, /lib64, /usr/lib and /usr/lib64 and the C, C++ and Fortran runtimes, "
       "the loader and simmpi's own, which never are (docs/privatization.md)."},
      {"runtime.fold_threshold", Kind::Size, "0B",
       "In model mode (blas.mode = model), the program's malloc, calloc and realloc of at least "
       "this many bytes return folded memory: its content is meaningless, every rank's pages map "
       "one physical block of runtime.fold_block bytes, and messages are timed but not copied "
       "into it (SMPI's shared malloc; SIMMPI_SHARED_MALLOC does the same explicitly). Lets a "
       "full-size HPL fit in a laptop's memory. 0B: nothing is folded automatically.",
       {}, 0, 1e18},
      {"runtime.fold_block", Kind::Size, "32MiB",
       "Physical memory behind all folded memory: one block this large, mapped over and over. "
       "Each block's worth of the largest rank's folded memory costs one of the kernel's 65,530 "
       "memory mappings (Frontera's HPL, 80 GB per rank: 2,500 mappings at 32MiB). A multiple of "
       "4KiB.",
       {}, 65536, 1099511627776.0},
      {"runtime.directory", Kind::Text, "",
       "Directory that relative paths in path keys (outputs such as report.profile_file and "
       "network.stats_prefix, inputs such as node.placement_file) are taken from. Empty: the "
       "current directory. simmpi-hpl, which runs HPL in a scratch directory, sets it to the "
       "directory it was started from, so what a user asks for lands there."},
      {"runtime.epoch", Kind::Integer, "1700000000",
       "Seconds since 1970 that gettimeofday, clock_gettime(CLOCK_REALTIME) and time return at "
       "simulated time zero, so runs are reproducible.",
       {}, 0, 4e9},
      {"runtime.seed", Kind::Integer, "1", "Seed of every pseudo-random choice of a run.", {}, 0,
       9.2e18},
      {"runtime.wall_limit", Kind::Time, "0s",
       "Stops the run with an error (exit status 124) once it has taken this much wall time on "
       "the host, as mpiexec's MPIEXEC_TIMEOUT stops a job: a guard against a program that "
       "never ends. 0: no limit, unless the environment sets MPIEXEC_TIMEOUT (seconds), which "
       "then gives the limit.",
       {}, 0, 1e9},
      {"runtime.heartbeat", Kind::Time, "0s",
       "Print a line with the simulated time and the events so far each time the simulation "
       "passes a multiple of this much simulated time (checked every 65,536 events), to follow "
       "a long run; 0s: never.",
       {}, 0, 1e9},
      {"runtime.report_switches", Kind::Bool, "false",
       "At the end, print how many times ranks were switched to, by the call each was in: where "
       "a run's events (and most of its wall time) go.",
       {}, 0, 1},
      {"runtime.host_time", Kind::Choice, "measure",
       "What the program's own code between MPI and BLAS calls costs in simulated time "
       "(docs/compute_time.md).",
       {{"measure", "the host time each rank spends there (the simulator's own work excluded), "
                    "translated to the node's CPU (runtime.host_time_scale); the summary says how "
                    "much of the predicted time it is. Measured runs vary slightly; "
                    "runtime.host_time_record and runtime.host_time_replay make them identical"},
        {"ignore", "nothing: only MPI, BLAS and SIMMPI_COMPUTE/SIMMPI_SLEEP calls take time (runs "
                   "are reproducible bit for bit)"}}},
      {"runtime.host_time_scale", Kind::Text, "auto",
       "Simulated seconds per host second of the program's own code. auto: the ratio of this "
       "host's core (measured once and cached, see runtime.host_calibration) to the node's, "
       "as runtime.host_time_bound says; or a positive number, e.g. 1.5 when the simulated "
       "core is known to be 1.5 times slower than this host's."},
      {"runtime.host_time_bound", Kind::Choice, "clock",
       "With runtime.host_time_scale = auto: what limits the program's own code, which decides "
       "the host-to-node ratio.",
       {{"clock", "the core clock (host clock / node.frequency): scalar, in-cache code with the "
                  "same instructions per cycle on both"},
        {"flops", "the floating-point peak (host core peak / node.avx512_frequency x "
                  "node.flops_per_cycle): vectorized arithmetic near peak"},
        {"memory", "memory bandwidth (host core bandwidth / the node's per core with all its "
                   "cores streaming): stencils, sparse and streaming code"}}},
      {"runtime.host_time_record", Kind::Path, "",
       "With runtime.host_time = measure: write every rank's measured bursts of own code to this "
       "file (a compute profile), for runtime.host_time_replay."},
      {"runtime.host_time_replay", Kind::Path, "",
       "Charge the program's own code from this compute profile (written by "
       "runtime.host_time_record) instead of measuring it: the same program, arguments and "
       "ranks give byte-identical results; a run that takes another path is stopped and the "
       "first rank and burst that differ are named."},
      {"runtime.host_calibration", Kind::Choice, "cached",
       "The measurement of this host's core that runtime.host_time_scale = auto uses.",
       {{"cached", "measure once (under a second) and reuse the cached figures "
                   "($SIMMPI_CACHE_DIR, else ~/.cache/simmpi, host-<name>.toml)"},
        {"refresh", "measure again and replace the cached figures"}}},

      // --- report: what the run tells at its end (runtime/observe) ---
      {"report.profile", Kind::Bool, "false",
       "Profile the run (the launch option --profile sets it): where each rank's simulated time "
       "went (its own code, MPI by function, blocked waiting versus its own overheads), per MPI "
       "function and communicator, and the load balance; a summary on stderr at the end and "
       "everything in report.profile_file (docs/profile.md). Simulated figures only: the same "
       "byte for byte on every rerun of a reproducible run.",
       {}, 0, 1},
      {"report.progress_after", Kind::Time, "2s",
       "On a terminal, a run that has taken this much wall time shows a progress line on stderr "
       "(simulated time, events per second, ranks done), redrawn in place twice a second and "
       "erased at the end; never when stderr is redirected, nor with --quiet.",
       {}, 0, 1e9},
      {"report.profile_file", Kind::Path, "simmpi_profile.json",
       "Where report.profile writes its JSON file (opened when the run starts, so an unwritable "
       "path stops the run before it begins)."},
      {"report.profile_top", Kind::Integer, "12",
       "How many functions and communicators the profile's summary on stderr lists (the most "
       "time-consuming); the JSON file has all.",
       {}, 1, 1e9},
      {"report.critical_path", Kind::Bool, "false",
       "Find the run's critical path (the launch option --critical-path sets it): the chain of "
       "compute, MPI overheads, messages and waits that decided when the last rank ended, "
       "walked back from it (docs/profile.md); a summary on stderr and everything in "
       "report.critical_path_file.",
       {}, 0, 1},
      {"report.critical_path_file", Kind::Path, "simmpi_critical_path.json",
       "Where report.critical_path writes its JSON file (opened when the run starts)."},
      {"report.html", Kind::Bool, "false",
       "At the end of the run, make one self-contained HTML page (plots as inline SVG) of what "
       "the run recorded: the profile, the critical path, the network statistics "
       "(simmpi-report, a Python tool installed beside the compiler wrappers). The launch option "
       "--report sets this with report.profile, report.critical_path, network.stats and "
       "network.stats_matrix = ranks."},
      {"report.html_file", Kind::Path, "simmpi_report.html", "Where report.html writes its page."},
      {"report.record", Kind::Path, "",
       "Record the run as a call trace in this directory, which must not exist yet (the "
       "launch option --record sets simmpi_trace): each rank's MPI calls and its compute "
       "between them, zstd-compressed, for simmpi-replay to run on any platform "
       "(docs/replay.md). Empty: no trace."},
      {"report.timeline", Kind::Choice, "none",
       "Write the run's timeline (the launch option --timeline sets chrome): every MPI call and "
       "the own code between calls as slices, point-to-point messages as arrows "
       "(docs/profile.md).",
       {{"none", "no timeline"},
        {"chrome", "Chrome trace-event JSON in report.timeline_file, for ui.perfetto.dev and "
                   "chrome://tracing: nodes as processes, ranks as threads"},
        {"otf2", "an OTF2 archive in the directory report.timeline_file (traces.otf2 in it), "
                 "for Vampir and the Score-P tools"}}},
      {"report.timeline_file", Kind::Path, "",
       "Where report.timeline writes: a file for chrome (default simmpi_timeline.json.gz; a "
       "name ending in .gz is gzip-compressed, which both viewers open), a "
       "directory for otf2 that must not exist yet (default simmpi_timeline). Opened or "
       "created when the run starts."},
      {"report.timeline_max_events", Kind::Integer, "20000000",
       "The timeline's size limit: past this many events (about 20 bytes each in OTF2 or "
       "compressed JSON, 150 in plain JSON) nothing more is recorded, with a warning; the run "
       "goes on.",
       {}, 1, 1e15},
      {"report.timeline_min_own_code", Kind::Time, "1us",
       "The shortest own code the timeline draws as a slice: a shorter gap between a rank's "
       "calls (a few tens of nanoseconds of measured host code between calls, most of them) "
       "stays a gap, which the calls' own times already show and a viewer draws as such; it "
       "would only make the file larger and slower to write. Counted after the cut to "
       "report.timeline_window. Modeled compute (SIMMPI_COMPUTE, BLAS) is own code too: one "
       "shorter than this is not drawn either. 0s: every gap is drawn.",
       {}, 0, 1e9},
      {"report.timeline_ranks", Kind::Text, "all",
       "The ranks the timeline shows: all, or ranks and inclusive ranges (0-15,64); a message "
       "is drawn when both its ends are shown."},
      {"report.timeline_window", Kind::Text, "",
       "The simulated time the timeline shows, FROM..TO (1ms..2.5ms; either end may be left "
       "out); empty: the whole run."},
      {"report.timeline_thread", Kind::Bool, "true",
       "Write the timeline on a host thread of its own when this process may run on more than "
       "one CPU: formatting and compressing the file then overlap the run instead of adding to "
       "it (wall time; the CPU time is about the same). The file is the same, byte for byte, "
       "either way. false: write it on the simulation's thread."},
      // --- node: ranks per node and the intra-node message path ---
      {"node.count", Kind::Integer, "0",
       "Number of nodes in the machine (the first ones of the network); 0 means all the nodes "
       "of a fat_tree, dragonfly or torus, or just enough for the ranks on a crossbar.",
       {}, 0, 1e9},
      {"node.ranks_per_node", Kind::Integer, "1", "MPI ranks placed on each node.", {}, 1, 1e6},
      {"node.shm_latency", Kind::Time, "300ns",
       "Latency of a message between two ranks of one node (shared memory).", {}, 0, 1},
      {"node.shm_bw", Kind::Bandwidth, "10GB/s",
       "Bandwidth of one message between two ranks of one node (a single-core memory copy).", {},
       1, 1e18},
      {"node.placement", Kind::Choice, "block",
       "Which node each rank runs on (node.ranks_per_node ranks per node).",
       {{"block", "ranks 0..k-1 on node 0, the next k on node 1, and so on"},
        {"round_robin", "rank r on node r mod n, n being the number of nodes the ranks need"},
        {"random", "each rank on a random free slot of the whole machine (seeded by "
                   "runtime.seed)"},
        {"file", "the nodes listed in node.placement_file, in order"}}},
      {"node.placement_file", Kind::Path, "",
       "For node.placement = file: node numbers, one per line ('#' starts a comment); the k-th "
       "number hosts ranks k*ranks_per_node to (k+1)*ranks_per_node - 1. A node may be listed "
       "once."},

      // --- node: compute (roofline of hardware/compute/cpu_model.hpp) ---
      {"node.sockets", Kind::Integer, "2", "Processor sockets per node.", {}, 1, 1024},
      {"node.cores_per_socket", Kind::Integer, "28", "Cores per socket.", {}, 1, 1e6},
      {"node.frequency", Kind::Frequency, "2.7GHz",
       "Core clock for scalar code (SIMMPI_COMPUTE).", {}, 1, 1e12},
      {"node.avx512_frequency", Kind::Frequency, "1.8GHz",
       "Core clock under AVX/AVX-512 load, used by dense kernels (DGEMM, DTRSM...); 0Hz means the "
       "same as node.frequency.",
       {}, 0, 1e12},
      {"node.flops_per_cycle", Kind::Real, "32",
       "Double-precision flops per core per cycle: 32 for two AVX-512 FMA units, 16 for AVX2 "
       "FMA; single precision is twice this.",
       {}, 1e-9, 1e6},
      {"node.memory_bw", Kind::Bandwidth, "282GB/s",
       "Memory bandwidth of the whole node; the ranks of a node share it.", {}, 1, 1e18},
      {"node.core_memory_bw", Kind::Bandwidth, "12GB/s",
       "Memory bandwidth one core draws alone; a rank gets min(node.memory_bw / "
       "node.ranks_per_node, its cores x this).",
       {}, 1, 1e18},
      {"node.memory", Kind::Size, "0B",
       "Main memory of one node. The simulator does not limit allocations by it; simmpi-hpl "
       "sizes its default problem from it. 0B: not given.",
       {}, 0, 1e18},
      {"node.cores_per_rank", Kind::Integer, "1",
       "Cores (threads) each rank computes with; fewer when ranks x cores oversubscribe a node.",
       {}, 1, 1e6},

      // --- blas: SimBLAS (libsimblas) ---
      {"blas.mode", Kind::Choice, "model", "What BLAS, LAPACK and cuBLAS calls do.",
       {{"model", "charge the modeled time and touch no data (i?amax returns a seeded "
                  "pseudo-random index, reductions the value for all-ones operands)"},
        {"execute", "charge the modeled time and also compute the result"}}},
      {"blas.profile", Kind::Path, "",
       "Compute profile (simmpi-calibrate output) giving each kernel's efficiency and overhead, "
       "relative to the platform file naming it; empty: every kernel at its roofline bound."},

      // --- gpu: devices per node and their links (hardware/compute/gpu_model.hpp) ---
      {"gpu.count", Kind::Integer, "0", "GPUs per node; 0: CUDA calls see no device.", {}, 0,
       1024},
      {"gpu.peak_flops", Kind::FlopRate, "67Tflops", "Double-precision peak of one GPU.", {}, 1,
       1e21},
      {"gpu.sp_peak_flops", Kind::FlopRate, "67Tflops", "Single-precision peak of one GPU.", {},
       1, 1e21},
      {"gpu.memory_bw", Kind::Bandwidth, "3.35TB/s", "Device memory (HBM) bandwidth of one GPU.",
       {}, 1, 1e18},
      {"gpu.memory", Kind::Size, "80GiB", "Device memory of one GPU; cudaMalloc beyond it fails.",
       {}, 1, 1e18},
      {"gpu.launch_latency", Kind::Time, "4us",
       "Host time of launching one kernel or asynchronous copy; the device starts after it.", {},
       0, 1},
      {"gpu.link_bw", Kind::Bandwidth, "64GB/s",
       "Host-device link bandwidth per direction (PCIe 5 x16: 64GB/s; NVLink-C2C: 450GB/s).", {},
       1, 1e18},
      {"gpu.link_latency", Kind::Time, "1us", "Latency of one host-device copy over the link.",
       {}, 0, 1},

      // --- network ---
      // Flows share links max-min fairly whatever the topology (hardware/network/). Keys of
      // sub-tables ([network.fat_tree]...) come after all plain network.* keys, so the TOML that
      // --print-config writes opens each table once.
      {"network.topology", Kind::Choice, "crossbar", "Shape of the interconnect.",
       {{"crossbar", "every node on one non-blocking switch; contention only at the NICs"},
        {"fat_tree", "extended generalized fat-tree of any depth, full or tapered "
                     "(network.fat_tree.*)"},
        {"dragonfly", "groups of all-to-all routers joined by global links "
                      "(network.dragonfly.*)"},
        {"torus", "torus or mesh of any dimension, dimension-order routing (network.torus.*)"}}},
      {"network.link_bw", Kind::Bandwidth, "100Gbps",
       "Bandwidth of each network link, including each NIC's injection and ejection link.", {}, 1,
       1e15},
      {"network.hop_latency", Kind::Time, "100ns", "Latency of one switch traversal.", {}, 0, 1},
      {"network.nic_latency", Kind::Time, "500ns",
       "Latency the two NICs add to every message (injection plus ejection).", {}, 0, 1},
      {"network.flow_max_bw", Kind::Bandwidth, "0bps",
       "Highest rate of a single message, often below the link bandwidth (SST/macro measured "
       "1.8GB/s on a 2.9GB/s link); 0bps: only the links limit it.",
       {}, 0, 1e18},
      {"network.chunk_size", Kind::Size, "0B",
       "Messages larger than this travel as chunks of this size, each routed when it starts, so "
       "random or adaptive routing and the sharing can change within a message; 0B: a message is "
       "one flow.",
       {}, 0, 1e18},
      {"network.stats", Kind::Bool, "false",
       "Write per-link bytes and busy time, the most loaded links and their load over time (at "
       "most 256 time bins, widened as the run grows), a hop-count histogram and a traffic "
       "matrix as CSV files at the end of the run (costs some time per message)."},
      {"network.stats_prefix", Kind::Path, "simmpi_net_",
       "Path prefix of the statistics files: <prefix>links.csv, busiest_links.csv, "
       "link_load.csv, hops.csv, matrix.csv."},
      {"network.stats_matrix", Kind::Choice, "nodes", "Endpoints of the traffic matrix.",
       {{"nodes", "bytes between nodes over the network"},
        {"ranks", "bytes between MPI ranks, shared-memory messages included"}}},
      {"network.stats_top", Kind::Integer, "20",
       "How many of the most loaded links busiest_links.csv lists.", {}, 1, 1e9},
      {"network.fat_tree.down", Kind::IntegerList, "[32, 32]",
       "Children of each switch, per level from the leaves up (XGFT m_1..m_h): [44, 182] is 182 "
       "leaf switches of 44 nodes under the core. The tree has the product of these nodes.",
       {}, 1, 1e9},
      {"network.fat_tree.up", Kind::IntegerList, "[]",
       "Parent switches of each node or switch, per level from the nodes up (XGFT w_1..w_h); "
       "[] gives a full tree [1, m_1, ..., m_(h-1)]. Fewer up than down ports taper the tree.",
       {}, 1, 1e9},
      {"network.fat_tree.links", Kind::IntegerList, "[]",
       "Parallel links to each parent, per level; [] is one each. Frontera's 18 leaf uplinks to "
       "6 core switches: up = [1, 6], links = [1, 3].",
       {}, 1, 1e9},
      {"network.fat_tree.level_bw", Kind::Text, "",
       "Bandwidth of the links of each level, e.g. \"[100Gbps, 200Gbps]\" (level 1 joins the "
       "nodes to their leaf switches); a level given as 0bps, and every level when this is empty, "
       "has network.link_bw."},
      {"network.fat_tree.routing", Kind::Choice, "dmodk", "How a flow picks its up ports.",
       {{"dmodk", "D-mod-K (Zahavi): from the destination, so shift permutations never share "
                  "a link on a full tree"},
        {"random", "a seeded random port per flow and level (ECMP-like)"}}},
      {"network.dragonfly.routers", Kind::Integer, "8", "Routers per group (a).", {}, 1, 1e6},
      {"network.dragonfly.terminals", Kind::Integer, "4", "Nodes per router (p).", {}, 1, 1e6},
      {"network.dragonfly.global_links", Kind::Integer, "4", "Global links per router (h).", {},
       0, 1e6},
      {"network.dragonfly.groups", Kind::Integer, "0",
       "Groups (g), at most a*h + 1 (one global link to every other group); 0: a*h + 1.", {}, 0,
       1e9},
      {"network.dragonfly.routing", Kind::Choice, "minimal", "Route of each flow.",
       {{"minimal", "local, global, local hop: at most one global link"},
        {"valiant", "minimal to a random intermediate group, then to the destination"},
        {"ugal", "minimal or Valiant per flow, whichever path is less loaded (UGAL-G)"}}},
      {"network.dragonfly.local_bw", Kind::Bandwidth, "0bps",
       "Bandwidth of the links within a group; 0bps: network.link_bw.", {}, 0, 1e15},
      {"network.dragonfly.global_bw", Kind::Bandwidth, "0bps",
       "Bandwidth of the links between groups; 0bps: network.link_bw.", {}, 0, 1e15},
      {"network.torus.dims", Kind::IntegerList, "[8, 8, 8]",
       "Routers along each dimension; the product times terminals is the node count.", {}, 1,
       1e9},
      {"network.torus.wrap", Kind::Bool, "true",
       "Wrap-around links in every dimension (a torus); false makes a mesh."},
      {"network.torus.terminals", Kind::Integer, "1", "Nodes per router.", {}, 1, 1e6},

      // --- storage: the parallel file system (hardware/storage/) ---
      {"storage.osts", Kind::Integer, "8",
       "Object storage targets (OSTs) of the Lustre-like file system that MPI-IO reads and "
       "writes. Each is an endpoint of the network, attached to the switch of a compute node "
       "(spread evenly), behind a link of storage.ost_bw each way.",
       {}, 1, 1e6},
      {"storage.ost_bw", Kind::Bandwidth, "2GB/s",
       "Bandwidth of one OST (its disks and server), shared max-min by the flows that reach it.",
       {}, 1, 1e15},
      {"storage.ost_latency", Kind::Time, "200us",
       "Time an OST takes to serve one request besides moving its data (seek, commit).", {}, 0,
       1},
      {"storage.stripe_size", Kind::Size, "1MiB",
       "Default stripe size of a new file (Lustre's default); the striping_unit hint overrides "
       "it per file.",
       {}, 1, 1e15},
      {"storage.stripe_count", Kind::Integer, "1",
       "Default number of OSTs a new file is striped over (Lustre's default, 1), at most "
       "storage.osts; the striping_factor hint overrides it per file.",
       {}, 1, 1e6},
      {"storage.mds_latency", Kind::Time, "100us",
       "Time the metadata server takes for one operation (open, create, close, resize, delete), "
       "besides the network's latency to it.",
       {}, 0, 1},
      {"storage.mds_rate", Kind::Integer, "20000",
       "Metadata operations the metadata server completes per second; more queue (the opens "
       "of a collective MPI_File_open by many ranks).",
       {}, 1, 1e12},

      // --- io: the host side of simulated file I/O (libsimmpi/io/) ---
      {"io.max_host_bytes", Kind::Size, "4GiB",
       "Most bytes the ranks' file writes may put on the host's disk in one run (data from "
       "folded buffers is left as holes and costs nothing). A run that would write more stops "
       "with a message naming the file and the rank; raise it, or fold the buffers "
       "(runtime.fold_threshold), to go on.",
       {}, 0, 1e18},
      {"io.posix_mounts", Kind::Text, "",
       "Directories (comma-separated) on the simulated parallel file system: a rank's own open, "
       "read, write, pread, pwrite and close, and fopen, fread, fwrite and fclose, on a path "
       "under one of them are charged to the storage model (storage.*) like MPI-IO; other paths "
       "are host I/O and cost nothing. Empty: none."},

      // --- mpi: protocol and software costs ---
      {"mpi.eager_threshold", Kind::Size, "64KiB",
       "Messages up to this size are sent eagerly; larger ones use the rendezvous protocol "
       "(request to send, clear to send, then the data).",
       {}, 0, 1e18},
      {"mpi.spawn_slots", Kind::Integer, "64",
       "Most ranks MPI_Comm_spawn may start over the run. Their slots are reserved at start on the "
       "nodes no rank uses (node.ranks_per_node each), so at most what those nodes hold: raise "
       "node.count (or node.ranks_per_node) for room. An unused slot costs about 1 KiB of host "
       "memory; 0 forbids spawning.",
       {}, 0, 1e6},
      {"mpi.spawn_launch_time", Kind::Time, "50ms",
       "Simulated time from MPI_Comm_spawn's call at the root to the children's start (process "
       "launch by the resource manager, exec, library load). An estimate, not a measurement: the "
       "order of Hydra's launch of a local process; the intercommunicator's context agreement "
       "then costs its simulated messages on top.",
       {}, 0, 3600},
      {"mpi.send_overhead", Kind::Time, "300ns", "CPU time of posting one send.", {}, 0, 1},
      {"mpi.recv_overhead", Kind::Time, "300ns",
       "CPU time of completing one receive (matching and copy-out).", {}, 0, 1},
      {"mpi.poll_cost", Kind::Time, "50ns",
       "Simulated time one MPI_Test*, MPI_Iprobe, MPI_Wtime, gettimeofday or clock_gettime call "
       "costs, so busy-polling loops advance the clock and end.",
       {}, 0, 1},
      {"mpi.poll_fast_forward", Kind::Bool, "true",
       "After mpi.poll_fast_forward_after fruitless MPI_Iprobe (or MPI_Improbe) calls of one rank "
       "for the same source, tag and communicator with no time spent in between (a busy-polling "
       "loop), the "
       "next one blocks until a matching message arrives and returns at the end of the first "
       "poll that would have seen it: the same simulated times as polling on, without one event "
       "per poll."},
      {"mpi.poll_fast_forward_after", Kind::Integer, "1000",
       "Back-to-back identical fruitless MPI_Iprobe or MPI_Improbe calls taken for a "
       "busy-polling loop; a bounded loop that probes this many times in a row would be cut short.",
       {}, 1, 1e12},

      // --- mpi.rma: one-sided communication (libsimmpi/rma/operations.hpp) ---
      {"mpi.rma.put_overhead", Kind::Time, "300ns",
       "CPU time of the origin for issuing one MPI_Put or MPI_Rput (the default is "
       "mpi.send_overhead's: both post one transfer). Published issue costs of one small put: "
       "80 ns (Open MPI osc/ucx, FDR InfiniBand, ANL's RMA message-rate test: 12.5 M puts/s, "
       "github.com/open-mpi/ompi/pull/3690) to 568 ns (Open MPI osc/rdma on Cray Aries, 8-byte "
       "osu_put_bw with MPI_Win_flush: 14.09 MB/s, github.com/open-mpi/ompi/pull/4919).",
       {}, 0, 1},
      {"mpi.rma.get_overhead", Kind::Time, "300ns",
       "CPU time of the origin for issuing one MPI_Get or MPI_Rget. An estimate: no published "
       "figure isolates a get's issue cost. A get posts one RDMA read descriptor as a put posts "
       "a write (foMPI: dmapp_get_nbi and dmapp_put_nbi, fompi_win_rma.c in "
       "github.com/spcl/foMPI-NA; Open MPI osc/ucx: ucp_get_nbi and ucp_put_nbi), so it takes "
       "mpi.rma.put_overhead's default, within the 80-568 ns measured for a put.",
       {}, 0, 1},
      {"mpi.rma.accumulate_overhead", Kind::Time, "300ns",
       "CPU time of the origin for issuing one MPI_Accumulate, MPI_Get_accumulate or their "
       "request-based forms (the target's reduction is timed on its CPU model). foMPI issues an "
       "MPI_SUM of 64-bit integers as one non-blocking network atomic per element "
       "(dmapp_aadd_qw_nbi, fompi_win_rma.c in github.com/spcl/foMPI-NA), the call its shared "
       "MPI_Win_unlock makes after a flush (fompi_win_lock.c): Punlock,shrd = 0.4 us minus "
       "Pflush = 76 ns leaves about 0.32 us per atomic issued (Cray XE6, Gemini; Gerstenberger, "
       "Besta, Hoefler, Communications of the ACM 61(10), 2018, p. 111, "
       "mags.acm.org/communications/october_2018/?pg=113), so the default stays 300 ns.",
       {}, 0, 1},
      {"mpi.rma.atomic_overhead", Kind::Time, "300ns",
       "CPU time of the origin for issuing one MPI_Fetch_and_op or MPI_Compare_and_swap (the "
       "round trip is the network's). foMPI issues an 8-byte MPI_Compare_and_swap as one "
       "network atomic (dmapp_acswap_qw, fompi_win_rma.c in github.com/spcl/foMPI-NA), and "
       "issuing one costs about 0.32 us on Cray XE6 (mpi.rma.accumulate_overhead says how that "
       "is derived), so the default stays 300 ns. (foMPI's MPI_Fetch_and_op takes a window "
       "mutex, a get and a put instead; simmpi times one round trip, as hardware atomics.)",
       {}, 0, 1},
      {"mpi.rma.progress", Kind::Choice, "hardware",
       "Who serves one-sided operations and lock requests at their target.",
       {{"hardware", "the NIC, at once, whatever the target does (RDMA)"},
        {"target_call", "the target rank, only while it is inside an MPI call: one that reaches "
         "it while it computes waits for its next call (software-emulated RMA)"}}},
      // The synchronization calls' own costs, one key per family (libsimmpi/rma/window.hpp's
      // SyncFamily); what they wait for (barriers, notices, lock grants, completions) is timed
      // on the network model. Measurements: foMPI on a Cray XE6 (Gemini), Gerstenberger, Besta,
      // Hoefler, Communications of the ACM 61(10), 2018, p. 111, whose text layer prints the
      // microsecond figures as "ms".
      {"mpi.rma.fence_overhead", Kind::Time, "76ns",
       "CPU time of one MPI_Win_fence, before it waits for the caller's operations and the "
       "barrier among the members. foMPI's fence is a flush of all targets and then "
       "MPI_Barrier (fompi_win_fence.c in github.com/spcl/foMPI-NA): its own cost is a flush's, "
       "Pflush = 76 ns (Cray XE6; Communications of the ACM 61(10), 2018, p. 111, "
       "mags.acm.org/communications/october_2018/?pg=113). The whole fence, Pfence = 2.9 us x "
       "log2 p there, is that plus the barrier, which simmpi times as lg p rounds of "
       "o_s + L + o_r (mpi.send_overhead, the network's latency, mpi.recv_overhead).",
       {}, 0, 1},
      {"mpi.rma.pscw_overhead", Kind::Time, "350ns",
       "CPU time of one MPI_Win_post, _start, _complete or _wait, before what it waits for (the "
       "notices, L after the call that sends them). foMPI on Cray XE6: Ppost = Pcomplete = "
       "350 ns x k for k neighbors (Communications of the ACM 61(10), 2018, p. 111, "
       "mags.acm.org/communications/october_2018/?pg=113), calls that send each neighbor one "
       "non-blocking network atomic (dmapp_aadd_qw_nbi, fompi_win_pscw.c in "
       "github.com/spcl/foMPI-NA), as the 0.32 us per atomic of mpi.rma.accumulate_overhead; "
       "simmpi charges a call once, the figure for one neighbor. Pstart = 0.7 us and Pwait = 1.8 us there include "
       "waiting for the notices, which simmpi times on the network.",
       {}, 0, 1},
      {"mpi.rma.lock_overhead", Kind::Time, "400ns",
       "CPU time of one MPI_Win_lock, _unlock, _lock_all or _unlock_all, before what it waits "
       "for (a lock's grant, 2L uncontended; an unlock's operations). foMPI on Cray XE6: "
       "Punlock,shrd = Punlock_all = 0.4 us, a flush and one non-blocking network atomic that "
       "releases the lock, nothing awaited (fompi_win_lock.c in github.com/spcl/foMPI-NA; "
       "Communications of the ACM 61(10), 2018, p. 111, "
       "mags.acm.org/communications/october_2018/?pg=113). Plock,shrd = Plock_all = 2.7 us "
       "there is the same issue plus the wait for one blocking remote fetch-and-add "
       "(2.7 - 0.4 = 2.3 us on Gemini), which simmpi times as the network's round trip; "
       "foMPI's exclusive lock (5.4 us) waits for two such atomics, simmpi's for one request. "
       "simmpi's MPI_Win_lock_all sends nothing (lazy acquisition): it costs this alone.",
       {}, 0, 1},
      {"mpi.rma.flush_overhead", Kind::Time, "76ns",
       "CPU time of one MPI_Win_flush, _flush_all, _flush_local or _flush_local_all, before it "
       "waits for the operations. foMPI on Cray XE6: Pflush = 76 ns (Communications of the ACM "
       "61(10), 2018, p. 111, mags.acm.org/communications/october_2018/?pg=113).",
       {}, 0, 1},
      {"mpi.rma.win_sync_overhead", Kind::Time, "17ns",
       "CPU time of one MPI_Win_sync (the memory model is unified: nothing else is done). "
       "foMPI on Cray XE6: Psync = 17 ns, a call that returns at once (fompi_win_lock.c in "
       "github.com/spcl/foMPI-NA; Communications of the ACM 61(10), 2018, p. 111, "
       "mags.acm.org/communications/october_2018/?pg=113).",
       {}, 0, 1},

      // --- mpi.coll: collective algorithms (libsimmpi/coll/selection.hpp) ---
      {"mpi.coll.selection", Kind::Choice, "ompi",
       "Whose default choice of collective algorithms to reproduce, by message size, "
       "communicator size and operation.",
       {{"ompi", "Open MPI 4.1's tuned fixed decision rules"},
        {"mpich", "MPICH 3.3's auto rules with the default CVAR thresholds"}}},
      {"mpi.coll.barrier", Kind::Choice, "auto", "Algorithm of MPI_Barrier and MPI_Ibarrier.",
       {kAuto,
        {"dissemination", "lg p rounds of signals to rank + 2^k (MPICH; Open MPI's bruck)"},
        {"recursive_doubling", "exchanges with rank ^ 2^k, extra ranks folded in"},
        {"linear", "everyone signals rank 0, which releases each in turn"},
        {"tree", "binomial fan-in to rank 0, then fan-out"}}},
      {"mpi.coll.bcast", Kind::Choice, "auto", "Algorithm of MPI_Bcast and MPI_Ibcast.",
       {kAuto, {"linear", "the root sends to every rank"},
        {"chain", "pipelined down mpi.coll.chain_fanout chains from the root"},
        {"pipeline", "pipelined down one chain of all ranks"},
        {"split_binary_tree", "each half down one subtree of a binary tree, then swapped"},
        {"binary_tree", "pipelined down a binary tree"},
        {"binomial", "down a binomial tree, largest subtree first"},
        {"knomial", "pipelined down a k-nomial tree of radix mpi.coll.knomial_radix"},
        {"scatter_allgather", "binomial scatter, then recursive-doubling allgather"},
        {"scatter_ring_allgather", "binomial scatter, then ring allgather"}}},
      {"mpi.coll.reduce", Kind::Choice, "auto", "Algorithm of MPI_Reduce and MPI_Ireduce.",
       {kAuto, {"linear", "the root receives and combines every vector in rank order"},
        {"chain", "pipelined up mpi.coll.chain_fanout chains to the root"},
        {"pipeline", "pipelined up one chain of all ranks"},
        {"binary_tree", "pipelined up a binary tree"},
        {"binomial", "up a binomial tree (the selected library's variant)"},
        {"in_order_binary_tree", "up a binary tree that keeps rank order (any operation)"},
        {"rabenseifner", "recursive-halving reduce-scatter, then binomial gather"}}},
      {"mpi.coll.allreduce", Kind::Choice, "auto",
       "Algorithm of MPI_Allreduce and MPI_Iallreduce.",
       {kAuto, {"linear", "linear reduce to rank 0, then linear broadcast"},
        {"nonoverlapping", "reduce to rank 0, then broadcast, each as selected"},
        {"recursive_doubling", "lg p exchanges of the whole vector"},
        {"ring", "ring reduce-scatter, then ring allgather"},
        {"segmented_ring", "ring whose reduce-scatter goes in segments of mpi.coll.segment_size"},
        {"rabenseifner", "recursive-halving reduce-scatter, then recursive-doubling allgather"}}},
      {"mpi.coll.allgather", Kind::Choice, "auto",
       "Algorithm of MPI_Allgather and MPI_Iallgather.", kAllgatherChoices},
      {"mpi.coll.allgatherv", Kind::Choice, "auto",
       "Algorithm of MPI_Allgatherv and MPI_Iallgatherv.", kAllgatherChoices},
      {"mpi.coll.alltoall", Kind::Choice, "auto", "Algorithm of MPI_Alltoall and MPI_Ialltoall.",
       {kAuto, kAlltoallLinear, kAlltoallPairwise,
        {"bruck", "lg p rounds of packed blocks to rank + 2^k"}, kAlltoallScattered}},
      {"mpi.coll.alltoallv", Kind::Choice, "auto",
       "Algorithm of MPI_Alltoallv and MPI_Ialltoallv.",
       {kAuto, kAlltoallLinear, kAlltoallPairwise, kAlltoallScattered}},
      {"mpi.coll.gather", Kind::Choice, "auto", "Algorithm of MPI_Gather and MPI_Igather.",
       {kAuto, {"linear", "every rank sends to the root at once"},
        {"binomial", "up a binomial tree"},
        {"linear_sync", "the root asks the ranks for their data one at a time"}}},
      {"mpi.coll.gatherv", Kind::Choice, "auto", "Algorithm of MPI_Gatherv and MPI_Igatherv.",
       {kAuto, {"linear", "every rank sends to the root at once"}}},
      {"mpi.coll.scatter", Kind::Choice, "auto", "Algorithm of MPI_Scatter and MPI_Iscatter.",
       {kAuto, kScatterLinear, kScatterLinearNb, {"binomial", "down a binomial tree"}}},
      {"mpi.coll.scatterv", Kind::Choice, "auto",
       "Algorithm of MPI_Scatterv and MPI_Iscatterv.", {kAuto, kScatterLinear, kScatterLinearNb}},
      {"mpi.coll.reduce_scatter", Kind::Choice, "auto",
       "Algorithm of MPI_Reduce_scatter and MPI_Ireduce_scatter.", kReduceScatterChoices},
      {"mpi.coll.reduce_scatter_block", Kind::Choice, "auto",
       "Algorithm of MPI_Reduce_scatter_block and MPI_Ireduce_scatter_block.",
       kReduceScatterChoices},
      {"mpi.coll.scan", Kind::Choice, "auto", "Algorithm of MPI_Scan and MPI_Iscan.",
       kScanChoices},
      {"mpi.coll.exscan", Kind::Choice, "auto", "Algorithm of MPI_Exscan and MPI_Iexscan.",
       kScanChoices},
      {"mpi.coll.segment_size", Kind::Size, "0B",
       "Segment size of the pipelined collectives (chain, pipeline, trees, segmented ring); 0 "
       "sends whole messages, as Open MPI's fixed rules do.",
       {}, 0, 1e18},
      {"mpi.coll.chain_fanout", Kind::Integer, "4",
       "Chains of a forced chain broadcast or reduction (Open MPI's default; its fixed rules "
       "use 1).",
       {}, 1, 1e6},
      {"mpi.coll.knomial_radix", Kind::Integer, "4", "Radix of the k-nomial broadcast tree.", {},
       2, 1e6},
      {"mpi.coll.alltoall_throttle", Kind::Integer, "32",
       "Peers per batch of the scattered all-to-all (MPICH's MPIR_CVAR_ALLTOALL_THROTTLE); 0 "
       "posts all at once.",
       {}, 0, 1e9},
  };
  // clang-format on
  return registry;
}

const OptionSpec* find_option(std::string_view key) {
  for (const auto& o : option_registry())
    if (key == o.key) return &o;
  return nullptr;
}

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string closest_option(std::string_view key) {
  std::string best;
  std::size_t best_d = ~std::size_t{0};
  for (const auto& o : option_registry()) {
    std::size_t d = edit_distance(key, o.key);
    // A key named without its table ("link_bw") is matched by its last component too.
    std::string_view k(o.key);
    std::string_view tail = k.substr(k.rfind('.') + 1);
    d = std::min(d, edit_distance(key, tail) + 1);
    if (d < best_d) best_d = d, best = o.key;
  }
  return best;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Integer:
      return "integer";
    case Kind::Real:
      return "number";
    case Kind::Bool:
      return "true or false";
    case Kind::Text:
      return "text";
    case Kind::Path:
      return "path";
    case Kind::Choice:
      return "choice";
    case Kind::IntegerList:
      return "list of integers";
    case Kind::Time:
      return "time";
    case Kind::Bandwidth:
      return "bandwidth";
    case Kind::Size:
      return "size";
    case Kind::Frequency:
      return "frequency";
    case Kind::FlopRate:
      return "flop rate";
  }
  return "";
}

}  // namespace simmpi::runtime
