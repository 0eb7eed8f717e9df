/*
 * c_api_need_checkpoint: SCR_Need_checkpoint's rules as SCR 3.1 applies them.
 *
 *   c_api_need_checkpoint interval   (SCR_CHECKPOINT_INTERVAL=3) calls are
 *                                    counted from SCR_Init: a checkpoint the
 *                                    application takes unasked after the
 *                                    second call does not move the yes of
 *                                    the third.
 *   c_api_need_checkpoint overhead   (SCR_CHECKPOINT_OVERHEAD=50) yes before
 *                                    the first checkpoint; then yes when a
 *                                    checkpoint of average cost, taken now,
 *                                    is below half of the time since the last
 *                                    one ended: after a long computation yes
 *                                    once, and right after that checkpoint no
 *                                    (a share of the whole run would say yes
 *                                    again). Output datasets are no cost.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c99 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "text_ckpt.h"
#include "scr.h"

static int rank;
static int taken;

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static int need(void) {
  int flag = -1;
  CHECK_OK(SCR_Need_checkpoint(&flag));
  return flag;
}

/* A checkpoint whose phase lasts at least `ms` milliseconds, valid or not. */
static void checkpoint_valid(long ms, int valid) {
  char name[32];
  snprintf(name, sizeof name, "c%d", ++taken);
  CHECK_OK(SCR_Start_output(name, SCR_FLAG_CHECKPOINT));
  sleep_ms(ms);
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  text_ckpt_file(file, sizeof file, "ckpt", name, rank);
  CHECK_OK(SCR_Route_file(file, path));
  FILE* f = fopen(path, "w");
  CHECK(f != NULL && fprintf(f, "%s rank %d\n", name, rank) > 0 && fclose(f) == 0);
  int rc = SCR_Complete_output(valid);
  CHECK(valid ? rc == SCR_SUCCESS : rc != SCR_SUCCESS);
}

static void checkpoint(long ms) { checkpoint_valid(ms, 1); }

/* An output dataset whose phase lasts `ms` milliseconds. */
static void output(long ms) {
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  CHECK_OK(SCR_Start_output("out", SCR_FLAG_OUTPUT));
  sleep_ms(ms);
  snprintf(file, sizeof file, "out/rank_%d.txt", rank);
  CHECK_OK(SCR_Route_file(file, path));
  FILE* f = fopen(path, "w");
  CHECK(f != NULL && fputs("out\n", f) >= 0 && fclose(f) == 0);
  CHECK_OK(SCR_Complete_output(1));
}

static void interval(void) {
  CHECK(need() == 0);
  CHECK(need() == 0);
  checkpoint(0); /* unasked */
  CHECK(need() == 1);
  checkpoint(0);
  CHECK(need() == 0);
  CHECK(need() == 0);
  CHECK(need() == 1);
}

static void overhead(void) {
  CHECK(need() == 1); /* no checkpoint yet: take one to learn its cost */
  checkpoint(300);
  CHECK(need() == 0); /* just taken */
  sleep_ms(1500);     /* computing: 0.3 / (1.5 + 0.3) is below 50% */
  CHECK(need() == 1);
  checkpoint(300);
  CHECK(need() == 0); /* just taken, although 0.6 s of a 2.1 s run is below 50% */
  /* An output phase, however long, is not a checkpoint's cost nor its end. */
  sleep_ms(1500);
  output(2500);
  CHECK(need() == 1);
}

/* SCR_CHECKPOINT_SECONDS=2 counts from SCR_Init, then from the end of the
 * last checkpoint, one that failed included (SCR 3.1 sets that time
 * whatever the outcome). */
static void seconds(void) {
  CHECK(need() == 0);
  sleep_ms(2200);
  CHECK(need() == 1);
  checkpoint(0);
  CHECK(need() == 0);
  sleep_ms(2200);
  CHECK(need() == 1);
  checkpoint_valid(0, 0); /* failed */
  CHECK(need() == 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_rank = rank;
  const char* mode = argc > 1 ? argv[1] : "";
  CHECK_OK(SCR_Init());
  if (strcmp(mode, "interval") == 0) interval();
  else if (strcmp(mode, "overhead") == 0) overhead();
  else if (strcmp(mode, "seconds") == 0) seconds();
  else CHECK(!"mode is interval, overhead or seconds");
  CHECK_OK(SCR_Finalize());
  int code = check_verdict("c_api_need_checkpoint");
  MPI_Finalize();
  return code;
}
