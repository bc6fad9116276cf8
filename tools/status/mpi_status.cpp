// SPDX-License-Identifier: Apache-2.0
// Prints docs/status.md: every MPI-3.1 function, implemented or not and why, by chapter, and the
// MPI-4.1 functions simmpi has, from
// the two tables that decide it (libsimmpi/include/simmpi_functions.h lists the functions,
// libsimmpi/api/not_implemented.def the missing ones). The test mpi_status_doc compares the
// output with the committed file, so the page cannot go stale.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "libsimmpi/api/not_implemented.hpp"

namespace {

struct Function {
  const char* name;
  const char* area;
};

constexpr Function kFunctions[] = {
#define SIMMPI_FUNCTION(name, area) {#name, #area},
#include "libsimmpi/include/simmpi_functions.h"
#undef SIMMPI_FUNCTION
};

struct Missing {
  const char* name;
  const char* reason;
};

constexpr Missing kMissing[] = {
#define SIMMPI_NOT_IMPLEMENTED(name, reason) {#name, simmpi::mpi::missing::reason},
#include "libsimmpi/api/not_implemented.def"
#undef SIMMPI_NOT_IMPLEMENTED
};

struct Area {
  const char* key;
  const char* title;
  const char* summary;
};

// One paragraph per chapter: what works, and the limits a user should know.
constexpr Area kAreas[] = {
    {"P2p", "Point-to-point communication (chapter 3)",
     "All of it: every send mode blocking, nonblocking and persistent, receives, probes and "
     "matched probes, the Wait and Test families, cancellation. Messages are matched at send time "
     "and moved by the eager or rendezvous protocol; payloads are really delivered. Limits: "
     "MPI_Cancel withdraws receives that have not matched, never sends (the standard allows "
     "it); ready mode (MPI_Rsend) behaves as standard mode."},
    {"Datatypes", "Datatypes (chapter 4)",
     "All constructors, queries, packing and addresses, and canonical packing in the "
     "external32 representation (big-endian, the standard's sizes: MPI_LONG is 4 bytes, "
     "MPI_LONG_DOUBLE an IEEE quadruple; a value that does not fit is MPI_ERR_CONVERSION)."},
    {"Collectives", "Collective communication (chapter 5)",
     "Every blocking and nonblocking collective on intracommunicators, with the algorithms and "
     "selection rules of Open MPI and MPICH, user-defined operations and MPI_IN_PLACE. "
     "MPI_(I)alltoallw uses the alltoallv schedule. On intercommunicators every collective "
     "MPI defines there (all but scan and exscan), blocking, nonblocking and persistent, runs "
     "MPICH's algorithms: a collective inside each group plus messages between the groups."},
    {"Groups", "Groups, contexts, communicators and caching (chapter 6)",
     "Groups, communicator construction (dup, split, split_type, create, create_group), "
     "intercommunicators (dup, idup, split and create too; split_type and create_group on "
     "intracommunicators only), names, info (no hints are used) and attribute caching on "
     "communicators and datatypes (one keyval table and one mechanism for communicators, windows "
     "and datatypes: MPI_Type_dup runs the copy callbacks, MPI_Type_free the delete callbacks), "
     "MPI_Comm_idup."},
    {"Topologies", "Process topologies (chapter 7)",
     "Cartesian, graph and distributed-graph topologies, and the neighborhood collectives, "
     "blocking and nonblocking."},
    {"Environment", "MPI environmental management (chapter 8)",
     "Initialization, clocks in simulated time, error handlers, classes, codes and strings, "
     "MPI_Alloc_mem (plain heap memory)."},
    {"Info", "The info object (chapter 9)",
     "All of it. MPI_INFO_ENV holds maxprocs, host, wdir and thread_level."},
    {"Dynamic", "Process creation and management (chapter 10)",
     "All of it but MPI_Comm_join. MPI_Comm_spawn and MPI_Comm_spawn_multiple start new ranks "
     "of the same job (fibers with their own MPI_COMM_WORLD, globals and argv) in the slots "
     "reserved at start on the platform's free nodes (mpi.spawn_slots; node.count gives room), "
     "mpi.spawn_launch_time after the root's call; only the job's own program can be spawned "
     "(another command is MPI_ERR_SPAWN), and of the info keys only \"wdir\" and \"path\" "
     "are read, to find the program (\"host\" and the others are ignored: placement is the "
     "platform's). Ports, MPI_Comm_accept/connect between any two groups of the job and the "
     "name table (one per job) work; MPI_Comm_disconnect is a barrier then MPI_Comm_free. "
     "MPI_Comm_join returns MPI_ERR_UNSUPPORTED_OPERATION: simulated ranks have no socket "
     "between them."},
    {"Rma", "One-sided communication (chapter 11)", "Not implemented."},
    {"External", "External interfaces (chapter 12)",
     "Generalized requests, the status setters and the thread-level calls. Every thread level "
     "up to MPI_THREAD_MULTIPLE is provided: the pthreads a rank starts are fibers of the rank "
     "that may call MPI (docs/threads.md); under MPI_THREAD_SINGLE and _FUNNELED a call from "
     "another thread is an error."},
    {"Io", "I/O (chapter 13)", "Not implemented."},
    {"Tool", "Tool support (chapter 14)",
     "The profiling interface: every function also has its PMPI_ name, and MPI_Pcontrol does "
     "nothing unless a tool intercepts it. The MPI_T tool information interface has every "
     "configuration key as a read-only control variable and the rank's queue lengths and "
     "own-code time as performance variables (libsimmpi/api/tool_interface_api.cpp)."},
    {"Bindings", "Language bindings (chapter 17)",
     "Handle and status conversion between C and Fortran (handles are the same integers in "
     "both), MPI_Type_match_size and the Fortran 90 parameterized datatypes "
     "(MPI_Type_create_f90_integer/real/complex return the predefined type of the smallest "
     "kind that has the asked precision and range, as gfortran's selected_*_kind would choose; "
     "MPI_ERR_ARG when no kind has it)."},
    {"Removed", "Removed in MPI-3.0, still provided",
     "The MPI-1 names old programs still call; they are not counted as MPI-3.1 functions. The "
     "MPI-1 marker datatypes MPI_LB and MPI_UB, also removed in MPI-3.0, are not provided (a "
     "program that names them does not compile; MPI_Type_create_resized sets bounds), nor is "
     "the optional MPI_COMPLEX32."},
    {"Mpi41", "MPI-4.1 functions provided",
     "Beyond MPI-3.1, simmpi has these functions of MPI-4.1, the MPI-4.1 error classes "
     "(MPI_ERR_SESSION, MPI_ERR_PROC_ABORTED, MPI_ERR_VALUE_TOO_LARGE, MPI_ERR_ERRHANDLER) and "
     "the MPI_ERRORS_ABORT error handler (it ends the job, as MPICH's does). MPI_Isendrecv and "
     "MPI_Isendrecv_replace post their receive and send as MPI_Irecv and MPI_Isend would. "
     "MPI_Comm_idup(_with_info) runs MPI_Comm_dup's context-id agreement in the background, "
     "with a second round so that overlapping ones never take the same id (on "
     "intercommunicators too). The persistent collectives (MPI_Barrier_init ... MPI_Exscan_init "
     "and "
     "the five MPI_Neighbor_*_init): the init call checks the arguments and takes the "
     "collective's place in the communicator's order, so ranks may start different ones in "
     "different orders; each MPI_Start reads the send buffers and runs the nonblocking "
     "collective with the arguments given at init (same algorithm, same simulated time); "
     "MPI_Wait/MPI_Test make the request inactive, and starting or freeing an active one is "
     "MPI_ERR_REQUEST; the info hints are ignored. The large-count functions have a table of "
     "their own (below). Partitioned communication (MPI_Psend_init, "
     "MPI_Precv_init, MPI_Pready, _range, _list, MPI_Parrived): sends and receives match in "
     "init order, partition counts may differ while total sizes must agree (else "
     "MPI_ERR_TRUNCATE); the receiver's MPI_Start is the clear-to-send, the partitions each "
     "MPI_Pready* call names (or all those ready when the clear-to-send arrives) travel as one "
     "flow, and MPI_Parrived says yes o_r after a partition's data is in, so all partitions "
     "ready at once cost one eager message of the whole size (libsimmpi/p2p/partitioned.hpp). "
     "Sessions (MPI_Session_*, MPI_Group_from_session_pset, MPI_Comm_create_from_group, "
     "MPI_Intercomm_create_from_groups): the process sets mpi://WORLD and mpi://SELF; a program "
     "may use sessions without MPI_Init or mix them with it; communicators from groups cost what "
     "MPI_Comm_create_group over MPI_COMM_WORLD costs. The status accessors "
     "(MPI_Status_get/set_source, _tag, _error) and MPI_Request_get_status_any/_all/_some, "
     "which complete nothing. Buffered sends use the communicator's buffer "
     "(MPI_Comm_attach_buffer), else that of the session the communicator was made from "
     "(MPI_Session_attach_buffer; communicators made by MPI_Comm_create_from_group and "
     "MPI_Intercomm_create_from_groups, not those duplicated or split from them), else the "
     "process's; MPI_BUFFER_AUTOMATIC never runs out; the flushes wait until the buffer is "
     "empty, the iflushes return a request that completes then (libsimmpi/p2p/buffer_api.cpp). "
     "MPI_Remove_error_class/_code/_string in the order the standard asks (a code before its "
     "class, a string before its code). MPI_Info_create_env (MPI_INFO_ENV's keys and the "
     "program's command and argv) and MPI_Get_hw_resource_info (the simulated node: "
     "mpi_hw_resource_type mpi_shared_memory, simmpi_node, simmpi_nodes, simmpi_ranks_on_node). "
     "MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED (mpi_hw_resource_type mpi_shared_memory: "
     "the node), _HW_UNGUIDED (the node when it is a strict subset) and _RESOURCE_GUIDED "
     "(mpi_pset_name mpi://WORLD or mpi://SELF); another level or set gives MPI_COMM_NULL; an "
     "_HW_UNGUIDED split that made a communicator sets mpi_hw_resource_type in the caller's info, "
     "while the new communicator's own info does not name the level. MPI_Type_get_value_index (the "
     "predefined pair types; MPI_DATATYPE_NULL for other pairs), MPI_Status_f082f and "
     "MPI_Status_f2f08. MPI_T events: the simulated clock is the one source (ticks are "
     "picoseconds, ordered), the event types unexpected_message and collective_algorithm, "
     "callbacks run on the rank's own fiber when its outermost MPI call returns, in simulated-"
     "time order, each registration queues at most 1024 events (info key simmpi_queue_length "
     "sets another bound) and reports the rest to its dropped handler "
     "(libsimmpi/core/tool_events.hpp). Fortran (mpif.h, use mpi): every function but the "
     "C-only ones (MPI_T, the _c forms, the C/Fortran conversions) has a binding and its pmpi_ "
     "name; use mpi_f08 has 423 of the 434 and the large-count forms under their int forms' "
     "names (docs/fortran.md says which not and why)."},
    {"Mpi41LargeCount", "MPI-4.1 large-count functions provided",
     "The `_c` forms of MPI-4.1 (MPICH 4.0.2's 154 and MPI-4.1's five more: the communicator "
     "and session buffer attach/detach and MPI_Status_set_elements_c), each a front end of the "
     "same implementation as its int form; a front end that narrows its counts calls the int "
     "form by its PMPI_ name, so a profiling tool that wraps both forms counts a call once. "
     "Point-to-point (sends, receives, persistent, matched and "
     "combined ones, the buffered-send buffer), the datatype constructors (contiguous, vector, "
     "hvector, indexed, hindexed, the _block forms, struct, resized) and the datatype queries "
     "(MPI_Get_count_c, MPI_Get_elements_c, MPI_Type_size_c, the extents, the envelope and "
     "contents) hold counts in 64 bits throughout, so a message or a type of more than INT_MAX "
     "elements or bytes works; the int MPI_Get_count and MPI_Type_size then say MPI_UNDEFINED. "
     "A type made with counts that do not fit an int reports them as large counts "
     "(MPI_Type_get_envelope_c; its byte displacements stay addresses), and the int "
     "MPI_Type_get_envelope/_contents raise MPI_ERR_TYPE for it; a type whose counts fit keeps "
     "them as integers, however it was made. The collectives, neighbourhood collectives, "
     "one-sided and file calls, packing and MPI_Type_create_subarray/darray hand their counts "
     "to the int implementation: a count (or array entry, or displacement unit) above INT_MAX "
     "fails with MPI_ERR_COUNT naming the call, the argument and its value, never truncated. "
     "MPI_Op_create_c's functions get their length as an MPI_Count. MPI_Register_datarep_c "
     "refuses user representations as MPI_Register_datarep does. The `_c` forms have no "
     "Fortran binding (mpif.h and `use mpi` have none in MPI-4.1)."},
};

// The C functions MPI-4.0 adds to MPI-3.1, counted in MPICH 4.0.2's headers (an MPI-4.0
// library) with tools/status/check_mpi31_list.py's pattern; MPI-4.1 adds a few more.
constexpr int kMpi40Added = 223;
constexpr int kMpi40LargeCount = 154;

bool is_mpi31_area(const char* key) {
  return std::strcmp(key, "Removed") != 0 && std::strcmp(key, "Mpi41") != 0 &&
         std::strcmp(key, "Mpi41LargeCount") != 0;
}

const char* missing_reason(const char* name) {
  for (const Missing& m : kMissing)
    if (!std::strcmp(m.name, name)) return m.reason;
  return nullptr;
}

std::vector<const Function*> in_area(const char* key) {
  std::vector<const Function*> v;
  for (const Function& f : kFunctions)
    if (!std::strcmp(f.area, key)) v.push_back(&f);
  return v;
}

int count_missing(const std::vector<const Function*>& fs) {
  int n = 0;
  for (const Function* f : fs) n += missing_reason(f->name) != nullptr;
  return n;
}

void print_overview() {
  int total = 0, missing = 0;
  for (const Area& a : kAreas) {
    if (!is_mpi31_area(a.key)) continue;
    auto fs = in_area(a.key);
    total += static_cast<int>(fs.size());
    missing += count_missing(fs);
  }
  std::printf("# MPI-3.1 and MPI-4.1 coverage\n\n");
  std::printf(
      "Generated by `simmpi-mpi-status` (tools/status/mpi_status.cpp) from\n"
      "libsimmpi/include/simmpi_functions.h and libsimmpi/api/not_implemented.def; the "
      "test\n`mpi_status_doc` fails when this page is stale. To regenerate it:\n"
      "`build/bin/simmpi-mpi-status > docs/status.md`.\n\n");
  std::printf(
      "Of the %d C functions of MPI-3.1, simmpi implements %d; %d are not "
      "implemented.\nEvery one of them links, under its MPI_ and its PMPI_ name; "
      "calling one that is not\nimplemented ends the run with one message naming the "
      "function, the rank and the reason,\nand exit status 1:\n\n",
      total, total - missing, missing);
  std::printf(
      "    simmpi: error: [t=0.000003000000 s r2] MPI_Xxx is not implemented by "
      "simmpi\n    (the reason); see docs/status.md\n\n");
  std::printf(
      "MPI-4.0 adds %d C functions to MPI-3.1 (%d of them the large-count `_c` variants), by "
      "the count of\nMPICH 4.0.2's headers; MPI-4.1 adds more. simmpi has all %zu of MPI-4.1 "
      "(the last two tables),\nchecked against MPICH's description of the MPI-4.1 functions "
      "(src/binding/mpi_standard_api.txt\nbefore its MPI-5.0 additions): `MPI_VERSION` and "
      "`MPI_SUBVERSION` are 4 and 1.\n\n",
      kMpi40Added, kMpi40LargeCount, in_area("Mpi41").size() + in_area("Mpi41LargeCount").size());
  std::printf("| chapter | functions | implemented | not implemented |\n|---|---:|---:|---:|\n");
  for (const Area& a : kAreas) {
    auto fs = in_area(a.key);
    int m = count_missing(fs);
    std::printf("| %s | %zu | %zu | %d |\n", a.title, fs.size(), fs.size() - m, m);
  }
}

void print_area(const Area& a) {
  std::printf("\n## %s\n\n%s\n\n| function | status |\n|---|---|\n", a.title, a.summary);
  for (const Function* f : in_area(a.key)) {
    const char* reason = missing_reason(f->name);
    if (reason)
      std::printf("| %s | not implemented (%s) |\n", f->name, reason);
    else
      std::printf("| %s | implemented |\n", f->name);
  }
}

}  // namespace

int main() {
  print_overview();
  for (const Area& a : kAreas) print_area(a);
  return 0;
}
