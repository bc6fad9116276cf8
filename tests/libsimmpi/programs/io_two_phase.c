/* SPDX-License-Identifier: Apache-2.0 */
/* Two-phase collective I/O against independent writes with data sieving, on a strided pattern:
 * rank r of N writes K blocks of B bytes, block k at file block k N + r (from a folded buffer:
 * the file is left as holes). The file is striped over all O OSTs of bandwidth BW.
 *  - independently (MPI_File_write with the strided view), each rank sieves: it reads the
 *    extent E = ((K - 1) N + 1) B its blocks span and writes it back; all ranks at once load
 *    the OSTs with 2 N E bytes: T_ind = 2 N E / (O BW), the OSTs being the bottleneck (within
 *    3%: the ranks' extents start at different stripes, so the OSTs' loads differ a little);
 *  - collectively (MPI_File_write_all), the aggregators write the K N B bytes once, contiguous:
 *    T_coll >= K N B / (O BW), plus the shuffle, at most every node's bytes over its link twice.
 *   io_two_phase PREFIX K B O BW LINK_BPS */
#include <math.h>
#include <simmpi.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 7) {
    fprintf(stderr, "usage: io_two_phase PREFIX K B O BW LINK_BPS\n");
    return 2;
  }
  char path[512];
  snprintf(path, sizeof path, "%s.dat", argv[1]);
  int K = atoi(argv[2]), B = atoi(argv[3]), O = atoi(argv[4]);
  double bw = atof(argv[5]), link = atof(argv[6]);
  char* buf = SIMMPI_SHARED_MALLOC((size_t)K * B);
  MPI_Datatype block, strided;
  MPI_Type_contiguous(B, MPI_BYTE, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)size * B, &strided);
  MPI_Type_commit(&strided);
  MPI_Info info;
  MPI_Info_create(&info);
  char factor[16];
  snprintf(factor, sizeof factor, "%d", O);
  MPI_Info_set(info, "striping_factor", factor);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  MPI_File_set_view(fh, (MPI_Offset)rank * B, MPI_BYTE, strided, "native", MPI_INFO_NULL);

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_File_write(fh, buf, K * B, MPI_BYTE, MPI_STATUS_IGNORE);
  double mine = MPI_Wtime() - t0, t_ind = 0;
  MPI_Allreduce(&mine, &t_ind, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  MPI_File_write_all(fh, buf, K * B, MPI_BYTE, MPI_STATUS_IGNORE);
  mine = MPI_Wtime() - t0;
  double t_coll = 0;
  MPI_Allreduce(&mine, &t_coll, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_File_close(&fh);

  double extent = (double)K * size * B;
  double sieved = ((double)(K - 1) * size + 1) * B;
  double ind = 2.0 * size * sieved / (O * bw);
  double lower = extent / (O * bw);
  int nodes = 0;
  {
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nrank;
    MPI_Comm_rank(node, &nrank);
    int leader = nrank == 0;
    MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
  }
  double shuffle = 2.0 * (extent / nodes) / link;
  if (rank == 0) {
    printf(
        "independent %.6f s (model %.6f s), collective %.6f s (bounds %.6f to %.6f s), "
        "ratio %.1f\n",
        t_ind, ind, t_coll, lower, lower + shuffle + 1e-3, t_ind / t_coll);
    CHECK(fabs(t_ind - ind) <= 0.03 * ind, "independent %.6f s, model %.6f s", t_ind, ind);
    CHECK(t_coll >= lower && t_coll <= lower + shuffle + 1e-3,
          "collective %.6f s outside [%.6f, %.6f]", t_coll, lower, lower + shuffle + 1e-3);
    MPI_File_delete(path, MPI_INFO_NULL);
  }
  MPI_Info_free(&info);
  MPI_Type_free(&strided);
  MPI_Type_free(&block);
  SIMMPI_SHARED_FREE(buf);
  return finish("io_two_phase");
}
