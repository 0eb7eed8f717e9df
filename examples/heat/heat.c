/*
 * heat: a 2-D heat diffusion (Jacobi) on a grid split by rows across MPI
 * ranks, checkpointed through SCR++'s C API. It is the demo application and
 * the workhorse of the end-to-end tests.
 *
 *   heat [-n steps] [-c every] [-g rows cols] [-o every] [--crash-at step]
 *        [--crash-rank r] [--hold-at step] [--invalid-restart-rank r] [--same-names] [--quiet]
 *
 * -c every   checkpoint every N steps (0: ask SCR_Need_checkpoint each step)
 * -o every   also write an output dataset every N steps (heat.<step>.txt)
 * --crash-at step: after that step's checkpoint, rank --crash-rank (default
 *            0) kills itself with SIGKILL, as a node failure would.
 * --hold-at step: after that step's checkpoint, every rank waits until it
 *            is killed (a test loses a real node while the job holds).
 * --invalid-restart-rank r: on restart, rank r reports the first checkpoint
 *            it is offered as invalid (tests SCR_Complete_restart(0)).
 * --same-names: every checkpoint writes ckpt/rank_<r>.dat, the same paths
 *            each time (as many applications do), instead of
 *            step.<n>/rank_<r>.dat.
 *
 * Rank 0 prints what happens in plain words and ends with
 *   RESULT steps=<n> checksum=<hex>
 * which is identical for an interrupted-and-restarted run and an
 * uninterrupted one, whatever the number of ranks of either: the checksum
 * covers the whole grid in row order. A restart may run on another number
 * of ranks than the checkpoint was written by: each rank reads the rows it
 * now owns from whichever checkpoint files hold them (scr/scr_ext.h tells
 * how many ranks wrote the checkpoint).
 */
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scr.h"
#include "scr/scr_ext.h"

typedef struct {
  int steps, every, out_every, rows, cols, crash_at, crash_rank, bad_restart_rank, quiet, hold_at, same_names;
} Options;

typedef struct {
  int rank, ranks, local_rows, cols, first_row;
  double *cur, *next; /* (local_rows + 2) x cols, with halo rows */
} Grid;

static int rank_g = 0;
static int same_names_g = 0; /* --same-names */

static void say(const Options* o, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const Options* o, const char* fmt, ...) {
  if (rank_g != 0 || o->quiet) return;
  va_list ap;
  va_start(ap, fmt);
  printf("[heat] ");
  vprintf(fmt, ap);
  printf("\n");
  fflush(stdout);
  va_end(ap);
}

static void die(const char* what) {
  fprintf(stderr, "[heat] rank %d: %s\n", rank_g, what);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

static Options parse(int argc, char** argv) {
  Options o = {60, 10, 0, 64, 64, -1, 0, -1, 0, -1, 0};
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) o.steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-c") && i + 1 < argc) o.every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) o.out_every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-g") && i + 2 < argc) {
      o.rows = atoi(argv[++i]);
      o.cols = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--crash-at") && i + 1 < argc) o.crash_at = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--crash-rank") && i + 1 < argc) o.crash_rank = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--hold-at") && i + 1 < argc) o.hold_at = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--invalid-restart-rank") && i + 1 < argc) o.bad_restart_rank = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quiet")) o.quiet = 1;
    else if (!strcmp(argv[i], "--same-names")) o.same_names = 1;
    else {
      if (rank_g == 0) fprintf(stderr, "heat: unknown argument '%s'\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  return o;
}

static double* row(Grid* g, double* base, int r) { return base + (size_t)r * g->cols; }

/* Initial state: a hot spot in the middle of a cold plate. */
static void init_grid(Grid* g, int rows) {
  for (int r = 0; r < g->local_rows + 2; ++r)
    for (int c = 0; c < g->cols; ++c) {
      int gr = g->first_row + r - 1;
      double v = 0.0;
      if (gr >= rows / 3 && gr < 2 * rows / 3 && c >= g->cols / 3 && c < 2 * g->cols / 3) v = 100.0;
      row(g, g->cur, r)[c] = v;
    }
}

static void exchange_halos(Grid* g) {
  int up = g->rank > 0 ? g->rank - 1 : MPI_PROC_NULL;
  int down = g->rank < g->ranks - 1 ? g->rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(row(g, g->cur, 1), g->cols, MPI_DOUBLE, up, 0, row(g, g->cur, g->local_rows + 1),
               g->cols, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(row(g, g->cur, g->local_rows), g->cols, MPI_DOUBLE, down, 1, row(g, g->cur, 0),
               g->cols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void step(Grid* g, int rows) {
  exchange_halos(g);
  for (int r = 1; r <= g->local_rows; ++r) {
    int gr = g->first_row + r - 1;
    for (int c = 0; c < g->cols; ++c) {
      double* out = &row(g, g->next, r)[c];
      if (gr == 0 || gr == rows - 1 || c == 0 || c == g->cols - 1) {
        *out = row(g, g->cur, r)[c]; /* fixed boundary */
        continue;
      }
      *out = 0.25 * (row(g, g->cur, r - 1)[c] + row(g, g->cur, r + 1)[c] + row(g, g->cur, r)[c - 1] +
                     row(g, g->cur, r)[c + 1]);
    }
  }
  double* t = g->cur;
  g->cur = g->next;
  g->next = t;
}

/* Rows [first, first + count) of rank `rank` of `ranks` in a grid of `rows`
 * rows: the first rows % ranks ranks hold one row more. */
static void rows_of(int rows, int ranks, int rank, int* first, int* count) {
  int base = rows / ranks, extra = rows % ranks;
  *count = base + (rank < extra);
  *first = rank * base + (rank < extra ? rank : extra);
}

/* FNV-1a over the whole grid in row order, gathered at rank 0: the same for
 * any number of ranks. */
static uint64_t checksum(Grid* g, int rows) {
  int* counts = NULL;
  int* displs = NULL;
  double* all = NULL;
  if (g->rank == 0) {
    counts = malloc(sizeof(int) * g->ranks);
    displs = malloc(sizeof(int) * g->ranks);
    for (int r = 0; r < g->ranks; ++r) {
      rows_of(rows, g->ranks, r, &displs[r], &counts[r]);
      counts[r] *= g->cols;
      displs[r] *= g->cols;
    }
    all = malloc(sizeof(double) * (size_t)rows * g->cols);
  }
  MPI_Gatherv(row(g, g->cur, 1), g->local_rows * g->cols, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  uint64_t h = 1469598103934665603ull;
  if (g->rank == 0) {
    const unsigned char* p = (const unsigned char*)all;
    size_t n = (size_t)rows * g->cols * sizeof(double);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  free(all);
  free(counts);
  free(displs);
  return h;
}

static void file_name(char* buf, size_t n, const char* dataset, int rank) {
  snprintf(buf, n, "%s/rank_%d.dat", same_names_g ? "ckpt" : dataset, rank);
}

/* Returns 1 if this process wrote its piece successfully. */
static int write_state(Grid* g, int at_step, const char* dataset) {
  char name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  file_name(name, sizeof name, dataset, g->rank);
  if (SCR_Route_file(name, path) != SCR_SUCCESS) return 0;
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  int header[4] = {at_step, g->local_rows, g->cols, g->first_row};
  int ok = fwrite(header, sizeof header, 1, f) == 1 &&
           fwrite(row(g, g->cur, 1), sizeof(double) * g->cols, g->local_rows, f) == (size_t)g->local_rows;
  return fclose(f) == 0 && ok;
}

/* Read the rows this rank owns from the files of the checkpoint that hold
 * them: its own file when the checkpoint was written by as many ranks as
 * this job has, else parts of one or more files written by other ranks.
 * Returns 1 on success. */
static int read_state(Grid* g, int rows, const char* dataset, int* at_step) {
  int writers = 0;
  if (SCRPP_Restart_ranks(&writers) != SCR_SUCCESS || writers < 1) return 0;
  int ok = 1;
  *at_step = -1;
  for (int w = 0; w < writers && ok; ++w) {
    int first, count;
    rows_of(rows, writers, w, &first, &count);
    int lo = first > g->first_row ? first : g->first_row;
    int hi = first + count < g->first_row + g->local_rows ? first + count : g->first_row + g->local_rows;
    if (lo >= hi) continue; /* file w holds none of my rows */
    char name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
    file_name(name, sizeof name, dataset, w);
    if (SCR_Route_file(name, path) != SCR_SUCCESS) return 0;
    FILE* f = fopen(path, "rb");
    if (!f) return 0;
    int header[4];
    size_t row_bytes = sizeof(double) * g->cols;
    ok = fread(header, sizeof header, 1, f) == 1 && header[1] == count && header[2] == g->cols &&
         header[3] == first && (*at_step < 0 || *at_step == header[0]) &&
         fseek(f, (long)(sizeof header + (size_t)(lo - first) * row_bytes), SEEK_SET) == 0 &&
         fread(row(g, g->cur, 1 + lo - g->first_row), row_bytes, (size_t)(hi - lo), f) == (size_t)(hi - lo);
    if (ok) *at_step = header[0];
    fclose(f);
  }
  return ok && *at_step >= 0;
}

static void checkpoint(Grid* g, const Options* o, int at_step) {
  char dataset[64];
  snprintf(dataset, sizeof dataset, "step.%d", at_step);
  if (SCR_Start_output(dataset, SCR_FLAG_CHECKPOINT) != SCR_SUCCESS) die("SCR_Start_output failed");
  int valid = write_state(g, at_step, dataset);
  if (SCR_Complete_output(valid) != SCR_SUCCESS) die("SCR_Complete_output failed");
  say(o, "step %d: checkpoint '%s' saved (cached on the nodes, protected by redundancy)", at_step, dataset);
}

static void output(Grid* g, const Options* o, int at_step) {
  char dataset[64], name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  snprintf(dataset, sizeof dataset, "heat.%d", at_step);
  if (SCR_Start_output(dataset, SCR_FLAG_OUTPUT) != SCR_SUCCESS) die("SCR_Start_output failed");
  snprintf(name, sizeof name, "output/heat.%d.rank_%d.txt", at_step, g->rank);
  int valid = SCR_Route_file(name, path) == SCR_SUCCESS;
  FILE* f = valid ? fopen(path, "w") : NULL;
  if (f) {
    double sum = 0;
    for (int r = 1; r <= g->local_rows; ++r)
      for (int c = 0; c < g->cols; ++c) sum += row(g, g->cur, r)[c];
    fprintf(f, "step %d rank %d rows %d heat %.6f\n", at_step, g->rank, g->local_rows, sum);
    valid = fclose(f) == 0;
  } else {
    valid = 0;
  }
  if (SCR_Complete_output(valid) != SCR_SUCCESS) die("SCR_Complete_output (output) failed");
  say(o, "step %d: output dataset '%s' written to the prefix", at_step, dataset);
}

/* Load the newest checkpoint SCR offers; fall back to older ones if a rank
 * cannot use it. Returns the step to continue from (0 = fresh start). */
static int restart(Grid* g, const Options* o) {
  int offered_invalid = 0;
  for (;;) {
    int have = 0;
    char name[SCR_MAX_FILENAME];
    if (SCR_Have_restart(&have, name) != SCR_SUCCESS) die("SCR_Have_restart failed");
    if (!have) return 0;
    if (SCR_Start_restart(name) != SCR_SUCCESS) die("SCR_Start_restart failed");
    int at = 0;
    int valid = read_state(g, o->rows, name, &at);
    if (g->rank == o->bad_restart_rank && !offered_invalid) valid = 0;
    offered_invalid = 1;
    if (SCR_Complete_restart(valid) == SCR_SUCCESS) {
      say(o, "resumed from checkpoint '%s' (step %d): the steps before it are not recomputed", name, at);
      return at;
    }
    say(o, "checkpoint '%s' could not be used; asking SCR for an older one", name);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Grid g;
  MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g.ranks);
  rank_g = g.rank;
  Options o = parse(argc, argv);
  same_names_g = o.same_names;
  if (o.rows < g.ranks) die("the grid needs at least one row per rank");
  g.cols = o.cols;
  rows_of(o.rows, g.ranks, g.rank, &g.first_row, &g.local_rows);
  g.cur = calloc((size_t)(g.local_rows + 2) * g.cols, sizeof(double));
  g.next = calloc((size_t)(g.local_rows + 2) * g.cols, sizeof(double));
  init_grid(&g, o.rows);
  memcpy(g.next, g.cur, sizeof(double) * (size_t)(g.local_rows + 2) * g.cols);

  if (SCR_Init() != SCR_SUCCESS) die("SCR_Init failed");
  int start = restart(&g, &o);
  if (start == 0) {
    /* A rejected checkpoint may have been read into the grid: start clean. */
    init_grid(&g, o.rows);
    say(&o, "no checkpoint found: starting from step 0");
  }

  for (int s = start + 1; s <= o.steps; ++s) {
    step(&g, o.rows);
    int need = 0;
    if (o.every > 0) need = s % o.every == 0;
    else if (SCR_Need_checkpoint(&need) != SCR_SUCCESS) die("SCR_Need_checkpoint failed");
    if (need) checkpoint(&g, &o, s);
    if (o.out_every > 0 && s % o.out_every == 0) output(&g, &o, s);
    /* The barrier lets rank 0 finish reporting this step before a SIGKILL
     * elsewhere makes mpiexec kill it. */
    if (s == o.crash_at) MPI_Barrier(MPI_COMM_WORLD);
    if (s == o.crash_at && g.rank == o.crash_rank) {
      fprintf(stderr, "[heat] rank %d: simulating a failure at step %d (SIGKILL)\n", g.rank, s);
      fflush(stderr);
      raise(SIGKILL);
    }
    if (s == o.hold_at) {
      MPI_Barrier(MPI_COMM_WORLD);
      say(&o, "step %d: holding until killed", s);
      for (;;) pause();
    }
    int halt = 0;
    if (SCR_Should_exit(&halt) != SCR_SUCCESS) die("SCR_Should_exit failed");
    if (halt) {
      say(&o, "step %d: SCR asks the job to stop (halt condition); exiting cleanly", s);
      break;
    }
  }
  uint64_t sum = checksum(&g, o.rows);
  if (SCR_Finalize() != SCR_SUCCESS) die("SCR_Finalize failed");
  if (g.rank == 0) {
    printf("RESULT steps=%d checksum=%016llx\n", o.steps, (unsigned long long)sum);
    fflush(stdout);
  }
  free(g.cur);
  free(g.next);
  MPI_Finalize();
  return 0;
}
