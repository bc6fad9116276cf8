#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks libsimmpi/include/simmpi_functions.h against a real MPI's header: the MPI-3.1 functions
# are MPICH 4's C functions minus the MPI-4 additions below, plus the handle conversion functions
# that MPICH defines as macros (MPI_Comm_c2f...). This is how the list was made; run it when the
# list is in doubt (Debian: apt-get install libmpich-dev):
#   tools/status/check_mpi31_list.py /usr/include/x86_64-linux-gnu/mpich/mpi_proto.h \
#       /usr/include/x86_64-linux-gnu/mpich/mpio.h
import pathlib
import re
import sys

MPI4 = re.compile(
    r"_c$|^MPI_Session_|^MPI_Group_from_session_pset$|^MPI_Comm_create_from_group$"
    r"|^MPI_Intercomm_create_from_groups$|^MPI_P(send|recv)_init$|^MPI_Pready|^MPI_Parrived$"
    r"|^MPI_Isendrecv|^MPI_Comm_idup_with_info$|^MPI_Info_create_env$|^MPI_Info_get_string$"
    r"|^MPI_T_event|^MPI_T_source|^MPI_T_category_get_(events|num_events)$"
    r"|^MPI_Status_f2f08$|^MPI_Status_f082f$|^MPI_DUP_FN$"
    r"|^MPI_(Allgather|Allgatherv|Allreduce|Alltoall|Alltoallv|Alltoallw|Barrier|Bcast|Exscan"
    r"|Gather|Gatherv|Reduce|Reduce_scatter|Reduce_scatter_block|Scan|Scatter|Scatterv"
    r"|Neighbor_\w+)_init$")
CONVERTED = ["Comm", "Type", "Group", "Request", "File", "Win", "Op", "Info", "Errhandler",
             "Message"]


def mpich_functions(headers):
    names = set()
    for h in headers:
        text = re.sub(r"/\*.*?\*/", "", pathlib.Path(h).read_text(), flags=re.S)
        names.update(re.findall(r"^(?:int|double|MPI_\w+)\s+(MPI_\w+)\s*\(", text, flags=re.M))
    names = {n for n in names if not MPI4.search(n)}
    return names | {f"MPI_{c}_{d}" for c in CONVERTED for d in ("c2f", "f2c")}


def listed_functions():
    path = pathlib.Path(__file__).resolve().parents[2] / "libsimmpi/include/simmpi_functions.h"
    rows = re.findall(r"^SIMMPI_FUNCTION\((MPI_\w+), (\w+)\)", path.read_text(), flags=re.M)
    return ({n for n, area in rows if area not in ("Removed", "Mpi41", "Mpi41LargeCount")},
            {n for n, area in rows if area == "Removed"})


def main():
    expected = mpich_functions(sys.argv[1:])
    listed, removed = listed_functions()
    expected -= removed  # MPICH still declares the MPI-1 names MPI-3.0 removed
    for n in sorted(expected - listed):
        print(f"missing from the list: {n}")
    for n in sorted(listed - expected):
        print(f"listed but not in MPI-3.1 (per the header): {n}")
    print(f"{len(listed)} listed, {len(expected)} expected")
    return 0 if expected == listed else 1


if __name__ == "__main__":
    sys.exit(main())
