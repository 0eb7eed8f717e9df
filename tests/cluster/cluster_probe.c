/* cluster_probe: an MPI job that proves the ranks talk across nodes. Every
 * rank sends its processor name to rank 0 (point-to-point, so over TCP
 * between nodes) and takes part in an allreduce of the ranks; rank 0 prints
 * "SUM <sum> <name of rank 0>,<name of rank 1>,...". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, len, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  MPI_Get_processor_name(name, &len);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("SUM %d %s", sum, name);
    for (int r = 1; r < size; ++r) {
      char other[MPI_MAX_PROCESSOR_NAME] = {0};
      MPI_Recv(other, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf(",%s", other);
    }
    printf("\n");
  } else {
    MPI_Send(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
