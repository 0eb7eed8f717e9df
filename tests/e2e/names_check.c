/*
 * names_check: names at their limits, and application files named like
 * SCR++'s own files.
 *
 *   names_check write    a checkpoint whose name is 1023 bytes long (the
 *                        longest SCR_Have_restart can return), holding per
 *                        rank files named like SCR++'s redundancy files,
 *                        filemaps, summaries, index, halt and lock files;
 *                        then a 1024-byte name and names with a control
 *                        character, refused by SCR_Start_output.
 *   names_check restart  the long-named checkpoint is offered, and every file
 *                        reads back with the bytes written.
 * Prints "NAMES <mode> OK" on rank 0 when every check passed.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "scr.h"

static int rank, failures;

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "CHECK FAILED rank %d line %d: %s\n", rank, __LINE__, #cond); \
      ++failures;                                                                    \
    }                                                                                \
  } while (0)

/* Names SCR++ or SCR use for their own files, as application file names. */
static const char* const kNames[] = {
    "reddesc.%d.xor.grp_1_of_1.mem_1_of_4.redset", "reddesc.%d.rs.grp_1_of_1.mem_1_of_4.redset",
    "reddesc.%d.partner.grp_1_of_1.mem_1_of_4.redset", "filemap_%d.scr", "summary.scr.%d",
    "index.scr.%d", "halt.scr.%d", "job.lock.%d", "scr.dataset.1/rank_%d.dat",
};
enum { kCount = sizeof kNames / sizeof kNames[0] };

static void long_name(char* buf, size_t len) {
  memset(buf, 'n', len);
  memcpy(buf, "ckpt.", 5);
  buf[len] = '\0';
}

static void content(char* buf, size_t n, int i) { snprintf(buf, n, "file %d of rank %d", i, rank); }

static void write_mode(void) {
  char name[SCR_MAX_FILENAME + 1], file[256], path[SCR_MAX_FILENAME], text[64];
  long_name(name, SCR_MAX_FILENAME - 1);
  CHECK(SCR_Start_output(name, SCR_FLAG_CHECKPOINT) == SCR_SUCCESS);
  for (int i = 0; i < kCount; ++i) {
    snprintf(file, sizeof file, kNames[i], rank);
    CHECK(SCR_Route_file(file, path) == SCR_SUCCESS);
    FILE* f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
      content(text, sizeof text, i);
      fputs(text, f);
      fclose(f);
    }
  }
  CHECK(SCR_Complete_output(1) == SCR_SUCCESS);
  long_name(name, SCR_MAX_FILENAME);
  CHECK(SCR_Start_output(name, SCR_FLAG_CHECKPOINT) != SCR_SUCCESS);
  /* One rule, cache or bypass: a control character is never in a name. */
  CHECK(SCR_Start_output("ckpt\n2", SCR_FLAG_CHECKPOINT) != SCR_SUCCESS);
  CHECK(SCR_Start_output("ckpt\t2", SCR_FLAG_OUTPUT) != SCR_SUCCESS);
  CHECK(SCR_Start_output("ckpt\x7f" "2", SCR_FLAG_CHECKPOINT) != SCR_SUCCESS);
}

static void restart_mode(void) {
  int have = 0;
  char name[SCR_MAX_FILENAME], want[SCR_MAX_FILENAME + 1], file[256], path[SCR_MAX_FILENAME];
  char text[64], got[64];
  CHECK(SCR_Have_restart(&have, name) == SCR_SUCCESS);
  CHECK(have == 1);
  long_name(want, SCR_MAX_FILENAME - 1);
  CHECK(strcmp(name, want) == 0);
  if (!have) return;
  CHECK(SCR_Start_restart(name) == SCR_SUCCESS);
  for (int i = 0; i < kCount; ++i) {
    snprintf(file, sizeof file, kNames[i], rank);
    CHECK(SCR_Route_file(file, path) == SCR_SUCCESS);
    memset(got, 0, sizeof got);
    FILE* f = fopen(path, "r");
    CHECK(f != NULL);
    if (f) {
      CHECK(fgets(got, sizeof got, f) != NULL);
      fclose(f);
    }
    content(text, sizeof text, i);
    if (strcmp(got, text) != 0) fprintf(stderr, "rank %d: %s holds '%s'\n", rank, file, got);
    CHECK(strcmp(got, text) == 0);
  }
  CHECK(SCR_Complete_restart(1) == SCR_SUCCESS);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  CHECK(SCR_Init() == SCR_SUCCESS);
  if (!strcmp(mode, "write")) write_mode();
  else if (!strcmp(mode, "restart")) restart_mode();
  else CHECK(!"mode must be write or restart");
  CHECK(SCR_Finalize() == SCR_SUCCESS);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("NAMES %s OK\n", mode);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
