/*
 * c_regions: memory regions protected without files (scr/scr_ext.h), as a C
 * application uses them. Every rank protects three regions whose size and
 * bytes depend on its rank and on the step:
 *   id 0: the step (one int), id 1: 1000 + 10*rank doubles, id 2: 16 chars.
 *
 *   c_regions write          checkpoints steps 1 and 2 (SCRPP_Checkpoint),
 *                            then step 3 inside an output phase of its own
 *                            (SCRPP_Write_regions beside a routed file; a
 *                            second call there, with the regions changed, is
 *                            refused), and is killed (SIGKILL) before
 *                            SCR_Finalize
 *   c_regions restore STEP   SCRPP_Restore: the step restored is STEP, and
 *                            every byte of every region is checked
 *   c_regions refuse         inside SCR_Start_restart: a region of another
 *                            size, a protected region the checkpoint lacks,
 *                            a region of the checkpoint left unprotected are
 *                            each refused by SCRPP_Read_regions with every
 *                            region untouched (byte for byte); another
 *                            writer's region is refused as not this
 *                            process's (same size); then the right regions
 *                            are read
 *   c_regions mismatch       SCRPP_Restore with region 1 one element short:
 *                            refused, memory untouched
 *   c_regions rescale STEP   at another job size: SCRPP_Read_regions refuses,
 *                            and rank r reads writers r, r+size, ... with
 *                            SCRPP_Region_info and SCRPP_Restore_from
 *
 * Rank 0 prints the verdict (tests/api/check.h).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../api/check.h"
#include "scr.h"
#include "scr/scr_ext.h"

#define TAG_LEN 16

static int rank, ranks;

struct state {
  int step;
  double* grid;
  size_t n;
  char tag[TAG_LEN];
};

static size_t grid_len(int writer) { return 1000 + 10 * (size_t)writer; }

static double grid_value(int writer, int step, size_t i) { return writer * 1e6 + step * 1e3 + (double)i * 0.5; }

static void fill(struct state* s, int writer, int step) {
  s->step = step;
  for (size_t i = 0; i < s->n; ++i) s->grid[i] = grid_value(writer, step, i);
  memset(s->tag, 0, TAG_LEN);
  snprintf(s->tag, TAG_LEN, "w%d s%d", writer, step);
}

static int matches(const struct state* s, int writer, int step) {
  char tag[TAG_LEN];
  memset(tag, 0, TAG_LEN);
  snprintf(tag, TAG_LEN, "w%d s%d", writer, step);
  if (s->step != step || memcmp(s->tag, tag, TAG_LEN) != 0) return 0;
  for (size_t i = 0; i < s->n; ++i)
    if (s->grid[i] != grid_value(writer, step, i)) return 0;
  return 1;
}

static void init_state(struct state* s, size_t n) {
  s->n = n;
  s->grid = malloc(n * sizeof(double));
  if (!s->grid) MPI_Abort(MPI_COMM_WORLD, 3);
}

static void protect_all(struct state* s) {
  CHECK_OK(SCRPP_Protect(0, &s->step, 1, sizeof s->step));
  CHECK_OK(SCRPP_Protect(1, s->grid, s->n, sizeof(double)));
  CHECK_OK(SCRPP_Protect(2, s->tag, TAG_LEN, 1));
}

/* Memory a refused call must not have touched: a known pattern, and a copy. */
static unsigned char* scribble(struct state* s) {
  size_t bytes = s->n * sizeof(double);
  memset(s->grid, 0xA5, bytes);
  s->step = -7;
  memset(s->tag, 'x', TAG_LEN);
  unsigned char* copy = malloc(bytes + sizeof s->step + TAG_LEN);
  if (!copy) MPI_Abort(MPI_COMM_WORLD, 3);
  memcpy(copy, s->grid, bytes);
  memcpy(copy + bytes, &s->step, sizeof s->step);
  memcpy(copy + bytes + sizeof s->step, s->tag, TAG_LEN);
  return copy;
}

static int untouched(const struct state* s, const unsigned char* copy) {
  size_t bytes = s->n * sizeof(double);
  return memcmp(copy, s->grid, bytes) == 0 && memcmp(copy + bytes, &s->step, sizeof s->step) == 0 &&
         memcmp(copy + bytes + sizeof s->step, s->tag, TAG_LEN) == 0;
}

static void write_mode(void) {
  struct state s;
  init_state(&s, grid_len(rank));
  protect_all(&s);
  fill(&s, rank, 1);
  CHECK_OK(SCRPP_Checkpoint("step.1"));
  fill(&s, rank, 2);
  CHECK_OK(SCRPP_Checkpoint("step.2"));
  /* Step 3: the application's own file and the regions in one dataset. */
  fill(&s, rank, 3);
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  CHECK_OK(SCR_Start_output("step.3", SCR_FLAG_CHECKPOINT));
  snprintf(file, sizeof file, "own/rank_%d.txt", rank);
  int ok = SCR_Route_file(file, path) == SCR_SUCCESS;
  FILE* f = ok ? fopen(path, "w") : NULL;
  ok = f != NULL && fprintf(f, "own file of rank %d\n", rank) > 0;
  if (f) ok = fclose(f) == 0 && ok;
  CHECK(ok);
  CHECK_OK(SCRPP_Write_regions());
  /* Once per phase: a second call is refused, the regions written first
   * (step 3, which the restores check) stay, and the phase stays valid. */
  fill(&s, rank, 4);
  expect_error_from("SCRPP_Write_regions");
  CHECK_ERR(SCRPP_Write_regions());
  char why[SCR_MAX_FILENAME];
  CHECK_OK(SCRPP_Last_error(why, sizeof why));
  CHECK(strstr(why, "already called in this output phase") != NULL);
  fill(&s, rank, 3);
  CHECK_OK(SCR_Complete_output(ok));
  int rc = check_verdict("c_regions");
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  /* A crash: no SCR_Finalize, no flush at the end. */
  if (rc == 0) raise(SIGKILL);
  exit(rc);
}

static void restore_mode(int step) {
  struct state s;
  init_state(&s, grid_len(rank));
  protect_all(&s);
  scribble(&s);
  int restored = 0;
  char name[SCR_MAX_FILENAME];
  CHECK_OK(SCRPP_Restore(&restored, name));
  CHECK(restored == 1);
  CHECK(matches(&s, rank, step));
  if (rank == 0) printf("RESTORED %s step %d\n", name, s.step);
}

static void refuse_mode(void) {
  struct state s;
  init_state(&s, grid_len(rank) + 1);
  CHECK_OK(SCRPP_Protect(0, &s.step, 1, sizeof s.step));
  CHECK_OK(SCRPP_Protect(1, s.grid, s.n, sizeof(double))); /* one too many */
  CHECK_OK(SCRPP_Protect(2, s.tag, TAG_LEN, 1));
  unsigned char* copy = scribble(&s);
  int have = 0;
  CHECK_OK(SCR_Have_restart(&have, NULL));
  CHECK(have);
  CHECK_OK(SCR_Start_restart(NULL));
  expect_error_from("SCRPP_Read_regions");
  CHECK_ERR(SCRPP_Read_regions());
  CHECK(untouched(&s, copy));
  /* The right size (s.n stays: untouched() compares the whole buffer), and
   * a region the checkpoint has no data for. */
  CHECK_OK(SCRPP_Protect(1, s.grid, grid_len(rank), sizeof(double)));
  double extra[4] = {1, 2, 3, 4};
  CHECK_OK(SCRPP_Protect(3, extra, 4, sizeof(double)));
  expect_error_from("SCRPP_Read_regions");
  CHECK_ERR(SCRPP_Read_regions());
  CHECK(untouched(&s, copy));
  CHECK(extra[0] == 1 && extra[3] == 4);
  /* A region of the checkpoint left unprotected. */
  CHECK_OK(SCRPP_Unprotect(3));
  CHECK_OK(SCRPP_Unprotect(2));
  expect_error_from("SCRPP_Unprotect");
  CHECK_ERR(SCRPP_Unprotect(2));
  expect_error_from("SCRPP_Read_regions");
  CHECK_ERR(SCRPP_Read_regions());
  CHECK(untouched(&s, copy));
  /* At the checkpoint's own size another writer's regions are not this
   * process's to read (they may be in another node's cache): refused, and
   * the message must say so rather than that the checkpoint lacks them. */
  expect_error_from("SCRPP_Region_info");
  CHECK_ERR(SCRPP_Region_info((rank + 1) % ranks, 1, NULL, NULL, NULL));
  char why[512];
  CHECK_OK(SCRPP_Last_error(why, sizeof why));
  CHECK(strstr(why, "only its own regions") != NULL);
  /* All right now. */
  CHECK_OK(SCRPP_Protect(2, s.tag, TAG_LEN, 1));
  CHECK_OK(SCRPP_Read_regions());
  s.n = grid_len(rank);
  CHECK(matches(&s, rank, 3));
  CHECK_OK(SCR_Complete_restart(1));
  free(copy);
}

static void mismatch_mode(void) {
  struct state s;
  init_state(&s, grid_len(rank) - 1);
  protect_all(&s);
  unsigned char* copy = scribble(&s);
  int restored = 5;
  expect_error_from("SCRPP_Restore");
  CHECK_ERR(SCRPP_Restore(&restored, NULL));
  CHECK(restored == 0);
  CHECK(untouched(&s, copy));
  free(copy);
}

static void rescale_mode(int step) {
  int writers = 0;
  CHECK_OK(SCR_Start_restart(NULL));
  CHECK_OK(SCRPP_Restart_ranks(&writers));
  CHECK(writers != ranks && writers > 0);
  struct state mine;
  init_state(&mine, grid_len(rank));
  protect_all(&mine);
  unsigned char* copy = scribble(&mine);
  expect_error_from("SCRPP_Read_regions");
  CHECK_ERR(SCRPP_Read_regions());
  CHECK(untouched(&mine, copy));
  int read = 0;
  for (int w = rank; w < writers; w += ranks) {
    unsigned long long count = 0, elem = 0;
    char type[SCR_MAX_FILENAME];
    CHECK_OK(SCRPP_Region_info(w, 1, &count, &elem, type));
    CHECK(count == grid_len(w) && elem == sizeof(double) && type[0] == '\0');
    struct state s;
    init_state(&s, (size_t)count);
    CHECK_OK(SCRPP_Restore_from(w, 0, &s.step, 1, sizeof s.step));
    CHECK_OK(SCRPP_Restore_from(w, 1, s.grid, s.n, sizeof(double)));
    CHECK_OK(SCRPP_Restore_from(w, 2, s.tag, TAG_LEN, 1));
    CHECK(matches(&s, w, step));
    /* The wrong size is refused and leaves the buffer as it was. */
    double probe[3] = {7, 8, 9};
    expect_error_from("SCRPP_Restore_from");
    CHECK_ERR(SCRPP_Restore_from(w, 1, probe, 3, sizeof(double)));
    CHECK(probe[0] == 7 && probe[2] == 9);
    free(s.grid);
    ++read;
  }
  expect_error_from("SCRPP_Region_info");
  CHECK_ERR(SCRPP_Region_info(writers, 1, NULL, NULL, NULL));
  CHECK_OK(SCR_Complete_restart(1));
  int total = 0;
  MPI_Allreduce(&read, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(total == writers);
  if (rank == 0) printf("RESCALED %d writers onto %d ranks\n", writers, ranks);
  free(copy);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  check_rank = rank;
  CHECK_OK(SCR_Init());
  const char* mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "write")) {
    write_mode();
  } else if (!strcmp(mode, "restore") && argc == 3) {
    restore_mode(atoi(argv[2]));
  } else if (!strcmp(mode, "refuse")) {
    refuse_mode();
  } else if (!strcmp(mode, "mismatch")) {
    mismatch_mode();
  } else if (!strcmp(mode, "rescale") && argc == 3) {
    rescale_mode(atoi(argv[2]));
  } else {
    if (rank == 0) fprintf(stderr, "usage: c_regions write | restore STEP | refuse | mismatch | rescale STEP\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  CHECK_OK(SCR_Finalize());
  int rc = check_verdict("c_regions");
  MPI_Finalize();
  return rc;
}
