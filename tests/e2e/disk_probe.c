/*
 * disk_probe: checkpoints of chosen sizes, for scenarios where storage
 * really fills up or fails (tests/e2e/full_*.sh). Unlike the heat demo it
 * goes on after a call fails and reports every rank's return code.
 *
 *   disk_probe [BYTES | wait=PATH]...
 *
 * First takes the restart offered, if any: every rank reads its file back
 * and checks each byte (a mismatch is reported with SCR_Complete_restart(0),
 * and the next offer is tried). Then writes one checkpoint per BYTES
 * argument, step.<n> (n counting on from the restart), one file of BYTES
 * bytes per rank, step.<n>/rank_<r>.dat; a rank whose write fails (a full
 * cache) passes valid=0. wait=PATH: every rank waits there until PATH
 * exists (rank 0 prints "PROBE waiting for PATH" first), so that a
 * scenario can change the storage under a running job. Rank 0 prints one
 * line per call:
 *   PROBE <call> [<dataset>] rc=<rank 0's>,<rank 1's>,...
 *   PROBE restart <dataset> bytes=<n> valid=<0|1>
 *   PROBE wrote <dataset> valid=<0|1>      (valid on every rank)
 * and exits 0 whatever SCR returned (3 when SCR_Init failed).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scr.h"

static int rank, ranks;

static unsigned char pattern(int step, long offset) { return (unsigned char)(step * 31 + rank * 7 + offset); }

/* Rank 0 prints every rank's return code of one call. */
static void report(const char* what, int rc) {
  int* all = malloc(sizeof(int) * (size_t)ranks);
  MPI_Gather(&rc, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("PROBE %s rc=", what);
    for (int i = 0; i < ranks; i++) printf("%s%d", i ? "," : "", all[i]);
    printf("\n");
    fflush(stdout);
  }
  free(all);
}

/* Reads this rank's file of the checkpoint back; 1 when every byte is right. */
static int read_back(const char* dataset, int step, long* bytes) {
  char file[256], path[SCR_MAX_FILENAME];
  snprintf(file, sizeof file, "%s/rank_%d.dat", dataset, rank);
  *bytes = 0;
  if (SCR_Route_file(file, path) != SCR_SUCCESS) return 0;
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  int ok = 1, c;
  while ((c = fgetc(f)) != EOF) {
    if ((unsigned char)c != pattern(step, *bytes)) ok = 0;
    ++*bytes;
  }
  fclose(f);
  return ok;
}

/* The restart offered, if any; returns the step to number on from. */
static int restart(void) {
  for (;;) {
    int have = 0;
    char name[SCR_MAX_FILENAME] = "";
    if (SCR_Have_restart(&have, name) != SCR_SUCCESS || !have) return 1;
    if (SCR_Start_restart(name) != SCR_SUCCESS) {
      report("start_restart", 1);
      return 1;
    }
    int step = atoi(name + strlen("step."));
    long bytes = 0;
    int valid = read_back(name, step, &bytes);
    int all_valid = 0;
    MPI_Allreduce(&valid, &all_valid, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0) printf("PROBE restart %s bytes=%ld valid=%d\n", name, bytes, all_valid);
    int rc = SCR_Complete_restart(valid);
    report("complete_restart", rc);
    if (rc == SCR_SUCCESS) return step + 1;
  }
}

/* This rank's file of a checkpoint; 1 when every byte was written. */
static int write_file(const char* dataset, int step, long size) {
  char file[256], path[SCR_MAX_FILENAME];
  snprintf(file, sizeof file, "%s/rank_%d.dat", dataset, rank);
  if (SCR_Route_file(file, path) != SCR_SUCCESS) return 0;
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  int ok = 1;
  char buf[4096];
  for (long off = 0; off < size; off += (long)sizeof buf) {
    long n = size - off < (long)sizeof buf ? size - off : (long)sizeof buf;
    for (long j = 0; j < n; j++) buf[j] = (char)pattern(step, off + j);
    if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) ok = 0;
  }
  return fclose(f) == 0 && ok;
}

/* Every rank waits until rank 0 sees `path` (made by the scenario, which
 * changes the storage meanwhile). */
static void wait_for(const char* path) {
  if (rank == 0) {
    printf("PROBE waiting for %s\n", path);
    fflush(stdout);
    while (access(path, F_OK) != 0) usleep(100000);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int rc = SCR_Init();
  report("init", rc);
  if (rc != SCR_SUCCESS) {
    MPI_Finalize();
    return 3;
  }
  int step = restart() - 1;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "wait=", 5) == 0) {
      wait_for(argv[i] + 5);
      continue;
    }
    ++step;
    char dataset[64], what[96];
    snprintf(dataset, sizeof dataset, "step.%d", step);
    snprintf(what, sizeof what, "start_output %s", dataset);
    report(what, SCR_Start_output(dataset, SCR_FLAG_CHECKPOINT));
    int valid = write_file(dataset, step, atol(argv[i]));
    int all_valid = 0;
    MPI_Allreduce(&valid, &all_valid, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0) printf("PROBE wrote %s valid=%d\n", dataset, all_valid);
    snprintf(what, sizeof what, "complete_output %s", dataset);
    report(what, SCR_Complete_output(valid));
  }
  report("finalize", SCR_Finalize());
  MPI_Finalize();
  return 0;
}
