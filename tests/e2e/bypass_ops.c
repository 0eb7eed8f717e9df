/*
 * bypass_ops: dataset management on datasets written with cache bypass.
 *
 *   bypass_ops write    checkpoints a.1, b.2, c.3 (one file per rank,
 *                       <name>/rank_<r>.dat), output out.4; then
 *                       SCR_Drop("out.4"), SCR_Delete("b.2"),
 *                       SCR_Current("a.1").
 *   bypass_ops restart  the restart offered is a.1; every rank reads its
 *                       file back and checks its content.
 * Prints "BYPASS-OPS <mode> OK" on rank 0 when every call succeeded, and
 * "RESTARTED-FROM <name>" in restart mode.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "scr.h"

static int rank, failures;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "CHECK FAILED rank %d line %d: %s\n", rank, __LINE__, #cond); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static void content(char* buf, size_t n, const char* dataset) {
  snprintf(buf, n, "dataset %s rank %d", dataset, rank);
}

static void write_dataset(const char* name, int flags) {
  char file[SCR_MAX_FILENAME + 32], path[SCR_MAX_FILENAME], text[SCR_MAX_FILENAME + 32];
  CHECK(SCR_Start_output(name, flags) == SCR_SUCCESS);
  snprintf(file, sizeof file, "%s/rank_%d.dat", name, rank);
  CHECK(SCR_Route_file(file, path) == SCR_SUCCESS);
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  content(text, sizeof text, name);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  CHECK(SCR_Complete_output(f != NULL) == SCR_SUCCESS);
}

static void restart(void) {
  int have = 0;
  char name[SCR_MAX_FILENAME], file[SCR_MAX_FILENAME + 32], path[SCR_MAX_FILENAME];
  char want[SCR_MAX_FILENAME + 32], got[SCR_MAX_FILENAME + 32] = {0};
  CHECK(SCR_Have_restart(&have, name) == SCR_SUCCESS);
  CHECK(have == 1);
  if (!have) return;
  CHECK(SCR_Start_restart(name) == SCR_SUCCESS);
  snprintf(file, sizeof file, "%s/rank_%d.dat", name, rank);
  CHECK(SCR_Route_file(file, path) == SCR_SUCCESS);
  FILE* f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) {
    CHECK(fgets(got, sizeof got, f) != NULL);
    fclose(f);
  }
  content(want, sizeof want, name);
  CHECK(strcmp(got, want) == 0);
  CHECK(SCR_Complete_restart(1) == SCR_SUCCESS);
  if (rank == 0) printf("RESTARTED-FROM %s\n", name);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  CHECK(SCR_Init() == SCR_SUCCESS);
  if (!strcmp(mode, "write")) {
    write_dataset("a.1", SCR_FLAG_CHECKPOINT);
    write_dataset("b.2", SCR_FLAG_CHECKPOINT);
    write_dataset("c.3", SCR_FLAG_CHECKPOINT);
    write_dataset("out.4", SCR_FLAG_OUTPUT);
    CHECK(SCR_Drop("out.4") == SCR_SUCCESS);
    CHECK(SCR_Delete("b.2") == SCR_SUCCESS);
    CHECK(SCR_Current("a.1") == SCR_SUCCESS);
  } else if (!strcmp(mode, "restart")) {
    restart();
  } else {
    CHECK(!"mode must be write or restart");
  }
  CHECK(SCR_Finalize() == SCR_SUCCESS);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("BYPASS-OPS %s OK\n", mode);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
