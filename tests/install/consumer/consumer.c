/*
 * A tiny SCR application built against an installed SCR++ (find_package or
 * pkg-config): checkpoints once, and on the second run restarts from it.
 * Prints "CONSUMER OK <what>" on rank 0 when everything worked.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "scr.h"

static int fail(int rank, const char* what) {
  fprintf(stderr, "consumer rank %d: %s failed\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

int main(int argc, char** argv) {
  int rank = 0, have = 0, value = -1;
  char name[SCR_MAX_FILENAME], file[64], path[SCR_MAX_FILENAME];
  FILE* f;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (SCR_Init() != SCR_SUCCESS) return fail(rank, "SCR_Init");
  sprintf(file, "consumer/rank_%d.txt", rank);
  if (SCR_Have_restart(&have, name) != SCR_SUCCESS) return fail(rank, "SCR_Have_restart");
  if (have) {
    if (SCR_Start_restart(name) != SCR_SUCCESS) return fail(rank, "SCR_Start_restart");
    if (SCR_Route_file(file, path) != SCR_SUCCESS) return fail(rank, "SCR_Route_file (restart)");
    f = fopen(path, "r");
    if (!f || fscanf(f, "%d", &value) != 1) value = -1;
    if (f) fclose(f);
    if (SCR_Complete_restart(value == rank * 7) != SCR_SUCCESS) return fail(rank, "SCR_Complete_restart");
  }
  if (SCR_Start_output("consumer.ckpt", SCR_FLAG_CHECKPOINT) != SCR_SUCCESS) return fail(rank, "SCR_Start_output");
  if (SCR_Route_file(file, path) != SCR_SUCCESS) return fail(rank, "SCR_Route_file");
  f = fopen(path, "w");
  if (!f) return fail(rank, "fopen");
  fprintf(f, "%d\n", rank * 7);
  fclose(f);
  if (SCR_Complete_output(1) != SCR_SUCCESS) return fail(rank, "SCR_Complete_output");
  if (SCR_Finalize() != SCR_SUCCESS) return fail(rank, "SCR_Finalize");
  if (rank == 0) printf("CONSUMER OK %s %s\n", have ? "restarted from" : "fresh start", have ? name : "");
  MPI_Finalize();
  return 0;
}
