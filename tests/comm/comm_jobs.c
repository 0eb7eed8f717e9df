/*
 * Independent SCR++ jobs inside one MPI launch (SCRPP_Init_comm).
 *
 *   comm_jobs --split parity|subset6 --end N --every-a K --every-b K
 *             [--crash-at S] [--prefix-a DIR] [--prefix-b DIR]
 *
 * --split parity: even world ranks form job A, odd ones job B, each on its
 *   own communicator and prefix (--prefix-a/--prefix-b, also its working
 *   directory; the same directory for both is allowed, to see the second
 *   job refused).
 * --split subset6: world ranks 0..5 form job A; ranks 6 and 7 never call
 *   SCR++ (they only join the world barriers).
 * Job X checkpoints every --every-x steps, dataset "X.step.<s>" with one file
 *   per rank (X.<s>/rank_<r>.dat) whose bytes depend on job, rank and step.
 *   At start it restarts from what SCR offers, checks every byte and prints
 *   "job X rank r resumed X.step.<s>" (or "job X rank r fresh"); a byte
 *   that differs is an error. It runs to step --end and prints "job X rank r
 *   done".
 * --crash-at S: after step S, every process of the launch is killed
 *   (SIGKILL on world rank 0 once all have finished step S).
 * Exit codes: 0; 2 for a failed SCR call (4 for SCRPP_Init_comm, after
 * which the process still finalizes MPI), 3 for wrong bytes.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scr.h"
#include "scr/scr_ext.h"

struct options {
  const char* split;
  int end, every[2], crash_at;
  const char* prefix[2];
};

static struct options parse(int argc, char** argv) {
  struct options o = {"parity", 10, {3, 5}, -1, {NULL, NULL}};
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *k = argv[i], *v = argv[i + 1];
    if (!strcmp(k, "--split")) o.split = v;
    else if (!strcmp(k, "--end")) o.end = atoi(v);
    else if (!strcmp(k, "--every-a")) o.every[0] = atoi(v);
    else if (!strcmp(k, "--every-b")) o.every[1] = atoi(v);
    else if (!strcmp(k, "--crash-at")) o.crash_at = atoi(v);
    else if (!strcmp(k, "--prefix-a")) o.prefix[0] = v;
    else if (!strcmp(k, "--prefix-b")) o.prefix[1] = v;
    else {
      fprintf(stderr, "comm_jobs: unknown option %s\n", k);
      exit(64);
    }
  }
  return o;
}

static void check(int rc, const char* call) {
  if (rc == SCR_SUCCESS) return;
  fprintf(stderr, "comm_jobs: %s failed\n", call);
  exit(2);
}

/* The bytes job `job`'s rank `rank` writes at step `step`: 5000 + 7 * rank
 * bytes of a pattern no other job, rank or step repeats at its offset. */
static size_t fill(char* buf, char job, int rank, int step) {
  size_t n = 5000 + 7 * (size_t)rank;
  for (size_t i = 0; i < n; ++i) buf[i] = (char)(job * 31 + rank * 17 + step * 13 + (int)(i % 251));
  return n;
}

/* Restart: every rank reads its own file back; returns the step resumed. */
static int restart(char job, int rank) {
  int have = 0;
  char name[SCR_MAX_FILENAME];
  check(SCR_Have_restart(&have, name), "SCR_Have_restart");
  if (!have) {
    printf("job %c rank %d fresh\n", job, rank);
    return 0;
  }
  check(SCR_Start_restart(name), "SCR_Start_restart");
  int step = atoi(strrchr(name, '.') + 1);
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  snprintf(file, sizeof file, "%c.%d/rank_%d.dat", job, step, rank);
  check(SCR_Route_file(file, path), "SCR_Route_file");
  static char want[8192], got[8192];
  size_t n = fill(want, job, rank, step);
  FILE* f = fopen(path, "rb");
  size_t read = f ? fread(got, 1, sizeof got, f) : 0;
  if (f) fclose(f);
  int valid = read == n && memcmp(want, got, n) == 0;
  check(SCR_Complete_restart(valid), "SCR_Complete_restart");
  if (!valid) {
    fprintf(stderr, "comm_jobs: job %c rank %d read other bytes from %s\n", job, rank, path);
    exit(3);
  }
  printf("job %c rank %d resumed %s\n", job, rank, name);
  return step;
}

static void checkpoint(char job, int rank, int step) {
  char name[64], file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  snprintf(name, sizeof name, "%c.step.%d", job, step);
  snprintf(file, sizeof file, "%c.%d/rank_%d.dat", job, step, rank);
  check(SCR_Start_output(name, SCR_FLAG_CHECKPOINT), "SCR_Start_output");
  check(SCR_Route_file(file, path), "SCR_Route_file");
  static char buf[8192];
  size_t n = fill(buf, job, rank, step);
  FILE* f = fopen(path, "wb");
  int valid = f && fwrite(buf, 1, n, f) == n;
  if (f && fclose(f) != 0) valid = 0;
  check(SCR_Complete_output(valid), "SCR_Complete_output");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  struct options o = parse(argc, argv);

  int color = MPI_UNDEFINED;
  if (!strcmp(o.split, "parity")) color = world_rank % 2;
  else if (!strcmp(o.split, "subset6")) color = world_rank < 6 ? 0 : MPI_UNDEFINED;
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &comm);

  int in_job = comm != MPI_COMM_NULL, rank = -1, step = 0, rc = 0;
  char job = in_job ? (char)('A' + color) : '-';
  if (in_job) {
    MPI_Comm_rank(comm, &rank);
    if (o.prefix[color]) {
      /* Relative names land below the working directory, which must be
       * inside the prefix: each job works in its own. */
      if (chdir(o.prefix[color]) != 0) {
        perror(o.prefix[color]);
        exit(2);
      }
      char setting[SCR_MAX_FILENAME + 16];
      snprintf(setting, sizeof setting, "SCR_PREFIX=%s", o.prefix[color]);
      SCR_Config(setting);
    }
    if (SCRPP_Init_comm(comm) != SCR_SUCCESS) {
      printf("job %c rank %d init failed\n", job, rank);
      in_job = 0;
      rc = 4;
    }
    /* SCR++ keeps its own duplicate. */
    MPI_Comm_free(&comm);
  }
  if (in_job) step = restart(job, rank);

  /* Every process walks the same steps, so the crash comes after both jobs
   * finished the step's checkpoint. */
  int start = step;
  MPI_Allreduce(&start, &step, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  for (int s = step + 1; s <= o.end; ++s) {
    if (in_job && s > start && s % o.every[color] == 0) checkpoint(job, rank, s);
    if (s == o.crash_at) {
      fflush(stdout);
      MPI_Barrier(MPI_COMM_WORLD);
      if (world_rank == 0) raise(SIGKILL);
      /* The others wait to be killed by the launcher. */
      for (;;) MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  if (in_job) {
    check(SCR_Finalize(), "SCR_Finalize");
    printf("job %c rank %d done\n", job, rank);
  }
  MPI_Finalize();
  return rc;
}
