/*
 * heat_regions: the heat example (examples/heat) checkpointed with memory
 * regions only (SCRPP_Protect, scr/scr_ext.h): no file is named, routed,
 * written or read by the application. It protects its step counter and the
 * rows of the grid it owns; SCR++ writes and reads them.
 *
 *   heat_regions [-n steps] [-c every] [-g rows cols] [--crash-at step]
 *
 * --crash-at step: after that step's checkpoint, rank 0 kills itself.
 * Rank 0 ends with "RESULT steps=<n> checksum=<hex>", the same for an
 * interrupted-and-restarted run as for an uninterrupted one, whatever the
 * number of ranks of either: a restart at another size reads the rows each
 * rank now owns from the regions of the ranks that wrote them.
 */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scr.h"
#include "scr/scr_ext.h"

enum { REGION_STEP = 0, REGION_ROWS = 1 };

typedef struct {
  int rank, ranks, rows, cols, first_row, local_rows;
  double *cur, *next; /* (local_rows + 2) x cols, with halo rows; cur stays put: it is protected */
} Grid;

static void die(const Grid* g, const char* what) {
  fprintf(stderr, "[heat_regions] rank %d: %s\n", g->rank, what);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

static double* row(const Grid* g, double* base, int r) { return base + (size_t)r * g->cols; }

/* Rows [first, first + count) of rank `rank` of `ranks`. */
static void rows_of(int rows, int ranks, int rank, int* first, int* count) {
  int base = rows / ranks, extra = rows % ranks;
  *count = base + (rank < extra);
  *first = rank * base + (rank < extra ? rank : extra);
}

/* A hot spot in the middle of a cold plate. */
static void init_grid(Grid* g) {
  for (int r = 0; r < g->local_rows + 2; ++r)
    for (int c = 0; c < g->cols; ++c) {
      int gr = g->first_row + r - 1;
      int hot = gr >= g->rows / 3 && gr < 2 * g->rows / 3 && c >= g->cols / 3 && c < 2 * g->cols / 3;
      row(g, g->cur, r)[c] = hot ? 100.0 : 0.0;
    }
}

static void step(Grid* g) {
  int up = g->rank > 0 ? g->rank - 1 : MPI_PROC_NULL;
  int down = g->rank < g->ranks - 1 ? g->rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(row(g, g->cur, 1), g->cols, MPI_DOUBLE, up, 0, row(g, g->cur, g->local_rows + 1), g->cols,
               MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(row(g, g->cur, g->local_rows), g->cols, MPI_DOUBLE, down, 1, row(g, g->cur, 0), g->cols,
               MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int r = 1; r <= g->local_rows; ++r) {
    int gr = g->first_row + r - 1;
    for (int c = 0; c < g->cols; ++c) {
      double* out = &row(g, g->next, r)[c];
      if (gr == 0 || gr == g->rows - 1 || c == 0 || c == g->cols - 1)
        *out = row(g, g->cur, r)[c];
      else
        *out = 0.25 * (row(g, g->cur, r - 1)[c] + row(g, g->cur, r + 1)[c] + row(g, g->cur, r)[c - 1] +
                       row(g, g->cur, r)[c + 1]);
    }
  }
  /* Copied back rather than swapped: the protected region is cur's rows. */
  memcpy(row(g, g->cur, 1), row(g, g->next, 1), sizeof(double) * (size_t)g->local_rows * g->cols);
}

/* FNV-1a over the whole grid in row order, gathered at rank 0. */
static uint64_t checksum(const Grid* g) {
  int *counts = NULL, *displs = NULL;
  double* all = NULL;
  if (g->rank == 0) {
    counts = malloc(sizeof(int) * g->ranks);
    displs = malloc(sizeof(int) * g->ranks);
    for (int r = 0; r < g->ranks; ++r) {
      rows_of(g->rows, g->ranks, r, &displs[r], &counts[r]);
      counts[r] *= g->cols;
      displs[r] *= g->cols;
    }
    all = malloc(sizeof(double) * (size_t)g->rows * g->cols);
  }
  MPI_Gatherv(row(g, g->cur, 1), g->local_rows * g->cols, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  uint64_t h = 1469598103934665603ull;
  if (g->rank == 0) {
    const unsigned char* p = (const unsigned char*)all;
    for (size_t i = 0; i < (size_t)g->rows * g->cols * sizeof(double); ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  free(all);
  free(counts);
  free(displs);
  return h;
}

/* At another job size: the rows this rank owns, from each writer's region
 * of rows that holds some of them. Returns 1 on success. */
static int read_rows_of_writers(Grid* g, int writers, int* at_step) {
  int ok = SCRPP_Restore_from(0, REGION_STEP, at_step, 1, sizeof *at_step) == SCR_SUCCESS;
  for (int w = 0; w < writers && ok; ++w) {
    int first, count;
    rows_of(g->rows, writers, w, &first, &count);
    int lo = first > g->first_row ? first : g->first_row;
    int hi = first + count < g->first_row + g->local_rows ? first + count : g->first_row + g->local_rows;
    if (lo >= hi) continue;
    double* theirs = malloc(sizeof(double) * (size_t)count * g->cols);
    ok = theirs && SCRPP_Restore_from(w, REGION_ROWS, theirs, (size_t)count * g->cols, sizeof(double)) == SCR_SUCCESS;
    if (ok)
      memcpy(row(g, g->cur, 1 + lo - g->first_row), theirs + (size_t)(lo - first) * g->cols,
             sizeof(double) * (size_t)(hi - lo) * g->cols);
    free(theirs);
  }
  return ok;
}

/* The step to continue from (0: no checkpoint). */
static int restart(Grid* g, int* at_step) {
  int have = 0, writers = 0;
  if (SCR_Have_restart(&have, NULL) != SCR_SUCCESS) die(g, "SCR_Have_restart failed");
  if (!have) return 0;
  if (SCR_Start_restart(NULL) != SCR_SUCCESS) die(g, "SCR_Start_restart failed");
  if (SCRPP_Restart_ranks(&writers) != SCR_SUCCESS) die(g, "SCRPP_Restart_ranks failed");
  /* The same size: every protected region back at once, all checked first. */
  int ok = writers == g->ranks ? SCRPP_Read_regions() == SCR_SUCCESS : read_rows_of_writers(g, writers, at_step);
  if (SCR_Complete_restart(ok) != SCR_SUCCESS || !ok) die(g, "the checkpoint could not be restored");
  if (g->rank == 0) printf("[heat_regions] resumed at step %d (written by %d ranks)\n", *at_step, writers);
  return *at_step;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Grid g = {0};
  int steps = 60, every = 10, crash_at = -1;
  g.rows = 64;
  g.cols = 64;
  MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g.ranks);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-c") && i + 1 < argc) every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-g") && i + 2 < argc) {
      g.rows = atoi(argv[++i]);
      g.cols = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--crash-at") && i + 1 < argc) crash_at = atoi(argv[++i]);
    else die(&g, "usage: heat_regions [-n steps] [-c every] [-g rows cols] [--crash-at step]");
  }
  if (g.rows < g.ranks || every < 1) die(&g, "the grid needs a row per rank, and -c a positive interval");
  rows_of(g.rows, g.ranks, g.rank, &g.first_row, &g.local_rows);
  g.cur = calloc((size_t)(g.local_rows + 2) * g.cols, sizeof(double));
  g.next = calloc((size_t)(g.local_rows + 2) * g.cols, sizeof(double));
  if (!g.cur || !g.next) die(&g, "out of memory");
  init_grid(&g);
  memcpy(g.next, g.cur, sizeof(double) * (size_t)(g.local_rows + 2) * g.cols);

  if (SCR_Init() != SCR_SUCCESS) die(&g, "SCR_Init failed");
  int at = 0;
  if (SCRPP_Protect(REGION_STEP, &at, 1, sizeof at) != SCR_SUCCESS ||
      SCRPP_Protect(REGION_ROWS, row(&g, g.cur, 1), (size_t)g.local_rows * g.cols, sizeof(double)) != SCR_SUCCESS)
    die(&g, "SCRPP_Protect failed");
  int start = restart(&g, &at);
  for (int s = start + 1; s <= steps; ++s) {
    step(&g);
    at = s;
    if (s % every == 0) {
      char name[32];
      snprintf(name, sizeof name, "step.%d", s);
      if (SCRPP_Checkpoint(name) != SCR_SUCCESS) die(&g, "SCRPP_Checkpoint failed");
    }
    if (s == crash_at) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (g.rank == 0) raise(SIGKILL);
    }
  }
  uint64_t sum = checksum(&g);
  if (SCR_Finalize() != SCR_SUCCESS) die(&g, "SCR_Finalize failed");
  if (g.rank == 0) printf("RESULT steps=%d checksum=%016llx\n", steps, (unsigned long long)sum);
  free(g.cur);
  free(g.next);
  MPI_Finalize();
  return 0;
}
