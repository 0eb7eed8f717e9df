/*
 * c_api_misuse: calls of scr.h in the wrong state or with bad arguments.
 * Each must return an error code (not SCR_SUCCESS), print an error naming
 * the call on stderr, and not crash; SCR stays usable afterwards (each group
 * of misuses is followed by a checkpoint that must succeed). Compiled as
 * strict C99.
 *
 * SCR_Route_file outside a phase is not an error: as in SCR it copies the
 * name back unchanged (include/scr.h, docs). That is checked too.
 *
 * Before every expected error rank 0 prints "EXPECT-ERROR <call>" on stdout;
 * the script (tests/api/c_api_misuse.sh) checks each has its message.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "scr.h"
#include "scr/scr_ext.h"

static int rank = 0;
static int ranks = 0;
static int checkpoints = 0;

static int write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok;
}

/* A complete, valid checkpoint: proves SCR is still usable. */
static void good_checkpoint(void) {
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  ++checkpoints;
  CHECK_OK(SCR_Start_checkpoint());
  sprintf(file, "good_%d/rank_%d.dat", checkpoints, rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(strcmp(file, path) != 0);
  CHECK(write_text(path, "good\n"));
  CHECK_OK(SCR_Complete_checkpoint(1));
}

static void before_init(void) {
  char buf[SCR_MAX_FILENAME];
  int flag = 0;
  expect_error_from("SCR_Start_checkpoint");
  CHECK_ERR(SCR_Start_checkpoint());
  /* The cause of the last failure, as printed, for bindings' errors. */
  char why[64];
  CHECK_OK(SCRPP_Last_error(why, sizeof why));
  CHECK(strcmp(why, "SCR_Start_checkpoint called before SCR_Init") == 0);
  expect_error_from("SCR_Complete_checkpoint");
  CHECK_ERR(SCR_Complete_checkpoint(1));
  CHECK_OK(SCRPP_Last_error(why, 8)); /* cut to fit */
  CHECK(strcmp(why, "SCR_Com") == 0);
  CHECK_ERR(SCRPP_Last_error(why, 0));
  expect_error_from("SCR_Start_output");
  CHECK_ERR(SCR_Start_output("early", SCR_FLAG_OUTPUT));
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file("a.dat", buf));
  expect_error_from("SCR_Need_checkpoint");
  CHECK_ERR(SCR_Need_checkpoint(&flag));
  expect_error_from("SCR_Have_restart");
  CHECK_ERR(SCR_Have_restart(&flag, buf));
  expect_error_from("SCR_Start_restart");
  CHECK_ERR(SCR_Start_restart(buf));
  expect_error_from("SCR_Complete_restart");
  CHECK_ERR(SCR_Complete_restart(1));
  expect_error_from("SCR_Should_exit");
  CHECK_ERR(SCR_Should_exit(&flag));
  expect_error_from("SCR_Current");
  CHECK_ERR(SCR_Current("x"));
  expect_error_from("SCR_Drop");
  CHECK_ERR(SCR_Drop("x"));
  expect_error_from("SCR_Delete");
  CHECK_ERR(SCR_Delete("x"));
  expect_error_from("SCR_Finalize");
  CHECK_ERR(SCR_Finalize());
  /* A bad value of a known key: SCR_Config returns NULL and says why. */
  expect_error_from("SCR_Config");
  CHECK(SCR_Config("SCR_CACHE_SIZE=abc") == NULL);
}

static void without_start(void) {
  char buf[SCR_MAX_FILENAME];
  expect_error_from("SCR_Init");
  CHECK_ERR(SCR_Init());
  expect_error_from("SCR_Complete_checkpoint");
  CHECK_ERR(SCR_Complete_checkpoint(1));
  expect_error_from("SCR_Complete_output");
  CHECK_ERR(SCR_Complete_output(1));
  expect_error_from("SCR_Complete_restart");
  CHECK_ERR(SCR_Complete_restart(1));
  /* No checkpoint exists in this fresh prefix. */
  expect_error_from("SCR_Start_restart");
  CHECK_ERR(SCR_Start_restart(buf));
  good_checkpoint();
}

static void bad_arguments(void) {
  char buf[SCR_MAX_FILENAME];
  expect_error_from("SCR_Start_output");
  CHECK_ERR(SCR_Start_output("flags.zero", 0));
  expect_error_from("SCR_Start_output");
  CHECK_ERR(SCR_Start_output("flags.bad", 1 << 5));
  expect_error_from("SCR_Start_output");
  CHECK_ERR(SCR_Start_output("has/slash", SCR_FLAG_CHECKPOINT));
  expect_error_from("SCR_Need_checkpoint");
  CHECK_ERR(SCR_Need_checkpoint(NULL));
  expect_error_from("SCR_Have_restart");
  CHECK_ERR(SCR_Have_restart(NULL, buf));
  expect_error_from("SCR_Should_exit");
  CHECK_ERR(SCR_Should_exit(NULL));
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file(NULL, buf));
  expect_error_from("SCR_Current");
  CHECK_ERR(SCR_Current(NULL));
  expect_error_from("SCR_Drop");
  CHECK_ERR(SCR_Drop(NULL));
  expect_error_from("SCR_Delete");
  CHECK_ERR(SCR_Delete(NULL));
  good_checkpoint();
}

static void inside_a_phase(void) {
  char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME], buf[SCR_MAX_FILENAME];
  int flag = 0;
  CHECK_OK(SCR_Start_output("open.one", SCR_FLAG_CHECKPOINT));
  expect_error_from("SCR_Start_output");
  CHECK_ERR(SCR_Start_output("open.two", SCR_FLAG_CHECKPOINT));
  expect_error_from("SCR_Start_checkpoint");
  CHECK_ERR(SCR_Start_checkpoint());
  expect_error_from("SCR_Need_checkpoint");
  CHECK_ERR(SCR_Need_checkpoint(&flag));
  expect_error_from("SCR_Have_restart");
  CHECK_ERR(SCR_Have_restart(&flag, buf));
  expect_error_from("SCR_Start_restart");
  CHECK_ERR(SCR_Start_restart(buf));
  expect_error_from("SCR_Complete_restart");
  CHECK_ERR(SCR_Complete_restart(1));
  expect_error_from("SCR_Current");
  CHECK_ERR(SCR_Current("open.one"));
  expect_error_from("SCR_Drop");
  CHECK_ERR(SCR_Drop("open.one"));
  expect_error_from("SCR_Delete");
  CHECK_ERR(SCR_Delete("open.one"));
  /* Files outside the prefix, or inside its .scr directory. */
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file("/etc/passwd", path));
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file("../outside.dat", path));
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file(".scr/index.scr", path));
  /* The first dataset is still open and completes normally. */
  sprintf(file, "open_one/rank_%d.dat", rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(write_text(path, "open one\n"));
  CHECK_OK(SCR_Complete_output(1));

  /* Route after Complete: outside a phase the name comes back unchanged. */
  strcpy(path, "garbage");
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(strcmp(path, file) == 0);
  /* Complete again. */
  expect_error_from("SCR_Complete_output");
  CHECK_ERR(SCR_Complete_output(1));
  expect_error_from("SCR_Complete_checkpoint");
  CHECK_ERR(SCR_Complete_checkpoint(1));

  /* A routed file that was never written: the dataset is not valid. */
  CHECK_OK(SCR_Start_checkpoint());
  sprintf(file, "never_written/rank_%d.dat", rank);
  CHECK_OK(SCR_Route_file(file, path));
  expect_error_from("SCR_Complete_checkpoint");
  CHECK_ERR(SCR_Complete_checkpoint(1));
  /* One rank says invalid. */
  CHECK_OK(SCR_Start_checkpoint());
  sprintf(file, "one_invalid/rank_%d.dat", rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(write_text(path, "x\n"));
  expect_error_from("SCR_Complete_checkpoint");
  CHECK_ERR(SCR_Complete_checkpoint(rank == ranks / 2 ? 0 : 1));
  good_checkpoint();
}

/* Between SCR_Finalize and a new SCR_Init every call fails, and an output
 * argument is written even then (0, or an empty name), never left holding
 * what the caller had in it. */
static void after_finalize(void) {
  char buf[SCR_MAX_FILENAME] = "garbage";
  int flag = 7;
  expect_error_from("SCR_Finalize");
  CHECK_ERR(SCR_Finalize());
  expect_error_from("SCR_Start_checkpoint");
  CHECK_ERR(SCR_Start_checkpoint());
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file("a.dat", buf));
  expect_error_from("SCR_Need_checkpoint");
  CHECK_ERR(SCR_Need_checkpoint(&flag));
  CHECK(flag == 0);
  flag = 7;
  expect_error_from("SCR_Should_exit");
  CHECK_ERR(SCR_Should_exit(&flag));
  CHECK(flag == 0);
  flag = 7;
  strcpy(buf, "garbage");
  expect_error_from("SCR_Have_restart");
  CHECK_ERR(SCR_Have_restart(&flag, buf));
  CHECK(flag == 0);
  CHECK(buf[0] == '\0');
  CHECK_STR(SCR_Get_version(), SCR_VERSION);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  check_rank = rank;

  before_init();
  /* SCR_Config returns NULL whether a set worked or not: the set it refused
     above makes the next SCR_Init fail, as a bad value in the environment
     does, rather than run on defaults; the SCR_Init after it runs. */
  expect_error_from("SCR_Init");
  CHECK_ERR(SCR_Init());
  CHECK_OK(SCR_Init());
  without_start();
  bad_arguments();
  inside_a_phase();
  {
    int flag = -1;
    CHECK_OK(SCR_Should_exit(&flag));
    CHECK(flag == 0);
  }
  CHECK_OK(SCR_Finalize());
  after_finalize();

  int code = check_verdict("c_api_misuse");
  MPI_Finalize();
  return code;
}
