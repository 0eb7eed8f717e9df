/*
 * c_api_all: every function of scr.h, used the way an SCR application uses
 * them, compiled as strict C99. Two runs in the same prefix:
 *
 *   c_api_all first    SCR_Config/SCR_Configf (set, query, unset, multi-item
 *                      descriptor, keys SCR++ does not know), Init,
 *                      Get_version, Have_restart (none), Need_checkpoint, checkpoints with generated and given
 *                      names, an output dataset, a checkpoint+output dataset,
 *                      an invalid checkpoint, Drop, Delete, Current,
 *                      Should_exit, Finalize.
 *   c_api_all restart  Have_restart offers the checkpoint SCR_Current marked;
 *                      Complete_restart(0) makes SCR offer the next older one,
 *                      which is read back and accepted; then more
 *                      checkpoints, one reusing the rejected one's name, and
 *                      SCR_Current on that name.
 *   c_api_all current  (run after every node was lost) the checkpoint
 *                      SCR_Current marked is fetched from the prefix.
 *
 * The script (tests/api/c_api_all.sh) checks the files left in the prefix.
 */
#define _POSIX_C_SOURCE 200809L /* getcwd, access under -std=c99 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scr.h"
#include "scr/version.h"

static int rank = 0;
static int ranks = 0;

/* Write one line to path; 1 on success. */
static int write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok;
}

/* Does path hold exactly text? */
static int file_holds(const char* path, const char* text) {
  char buf[256];
  FILE* f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return strcmp(buf, text) == 0;
}

static int starts_with(const char* s, const char* prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Route `name` in the open dataset and write `text` there. */
static int route_and_write(const char* name, const char* text, char* routed) {
  if (SCR_Route_file(name, routed) != SCR_SUCCESS) return 0;
  return write_text(routed, text);
}

static void configure(void) {
  const char* v;
  /* Nothing set through SCR_Config by an earlier run is seen here, and an
   * unset parameter answers NULL, not its built-in default. */
  CHECK(SCR_Config("SCR_CACHE_SIZE") == NULL);
  CHECK(SCR_Config("SCR_FLUSH") == NULL);
  /* SCR_JOB_NAME comes from the environment (c_api_all.sh): it outranks
   * SCR_Config, and "KEY=" removes only what SCR_Config set. */
  v = SCR_Config("SCR_JOB_NAME");
  CHECK_STR(v, "from-env");
  free((void*)v);
  CHECK(SCR_Config("SCR_JOB_NAME=from-app") == NULL);
  CHECK(SCR_Config("SCR_JOB_NAME=") == NULL);
  v = SCR_Config("SCR_JOB_NAME");
  CHECK_STR(v, "from-env");
  free((void*)v);
  /* Set, query, unset. */
  CHECK(SCR_Config("SCR_CACHE_SIZE=3") == NULL);
  v = SCR_Config("SCR_CACHE_SIZE");
  CHECK_STR(v, "3");
  free((void*)v);
  CHECK(SCR_Config("SCR_CACHE_SIZE=") == NULL);
  v = SCR_Config("SCR_CACHE_SIZE");
  CHECK(v == NULL || strcmp(v, "3") != 0);
  free((void*)v);
  /* printf form. */
  CHECK(SCR_Configf("SCR_CACHE_SIZE=%d", 2) == NULL);
  v = SCR_Configf("SCR_%s_SIZE", "CACHE");
  CHECK_STR(v, "2");
  free((void*)v);
  CHECK(SCR_Configf("SCR_FLUSH=%d", 1) == NULL);
  v = SCR_Config("SCR_FLUSH");
  CHECK_STR(v, "1");
  free((void*)v);
  /* Multi-item descriptor line and a query of one of its items. */
  CHECK(SCR_Config("CKPT=0 TYPE=SINGLE") == NULL);
  v = SCR_Config("CKPT=0 TYPE");
  CHECK_STR(v, "SINGLE");
  free((void*)v);
  CHECK(SCR_Configf("STORE=%s GROUP=NODE COUNT=%d", getenv("E2E_CACHE"), 2) == NULL);
  /* A key or item SCR++ does not know is stored and read back, as in SCR
   * (whose own test sets DEBUG=1), and the job goes on with it. */
  CHECK(SCR_Config("DEBUG=1") == NULL);
  v = SCR_Config("DEBUG");
  CHECK_STR(v, "1");
  free((void*)v);
  CHECK(SCR_Config("DEBUG = 0") == NULL);
  v = SCR_Config("DEBUG");
  CHECK_STR(v, "0");
  free((void*)v);
  CHECK(SCR_Config("FOOBAR") == NULL);
  CHECK(SCR_Config("CKPT=0 INTERNAL=1") == NULL);
  v = SCR_Config("CKPT=0 INTERNAL");
  CHECK_STR(v, "1");
  free((void*)v);
  v = SCR_Config("CKPT=0 TYPE");
  CHECK_STR(v, "SINGLE");
  free((void*)v);
}

static void first_run(void) {
  char name[SCR_MAX_FILENAME], file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME], text[128];
  char cwd[512];
  int flag = -1;
  CHECK(getcwd(cwd, sizeof cwd) != NULL);

  /* Nothing to restart from. */
  strcpy(name, "unchanged");
  CHECK_OK(SCR_Have_restart(&flag, name));
  CHECK(flag == 0);

  /* No checkpoint rule configured and no halt pending: no. */
  flag = 1;
  CHECK_OK(SCR_Need_checkpoint(&flag));
  CHECK(flag == 0);

  /* A checkpoint with a generated name (relative file name). */
  CHECK_OK(SCR_Start_checkpoint());
  sprintf(file, "ckpt/rank_%d.dat", rank);
  sprintf(text, "checkpoint A rank %d\n", rank);
  CHECK(route_and_write(file, text, path));
  CHECK(strcmp(path, file) != 0);
  CHECK(starts_with(path, getenv("E2E_CACHE")));
  CHECK(file_holds(path, text));
  CHECK_OK(SCR_Complete_checkpoint(1));

  /* A checkpoint with a given name (absolute file name inside the prefix). */
  CHECK_OK(SCR_Start_output("named.ckpt", SCR_FLAG_CHECKPOINT));
  sprintf(file, "%s/ckpt_b/rank_%d.dat", cwd, rank);
  sprintf(text, "checkpoint B rank %d\n", rank);
  CHECK(route_and_write(file, text, path));
  CHECK(starts_with(path, getenv("E2E_CACHE")));
  CHECK_OK(SCR_Complete_output(1));

  /* An output dataset: lands in the prefix at the name given. */
  CHECK_OK(SCR_Start_output("out.1", SCR_FLAG_OUTPUT));
  sprintf(file, "results/out_%d.txt", rank);
  sprintf(text, "output rank %d of %d\n", rank, ranks);
  CHECK(route_and_write(file, text, path));
  CHECK_OK(SCR_Complete_output(1));
  sprintf(path, "%s/results/out_%d.txt", cwd, rank);
  CHECK(file_holds(path, text));

  /* A dataset that is both: in the prefix and in cache. */
  CHECK_OK(SCR_Start_output("both.3", SCR_FLAG_CHECKPOINT | SCR_FLAG_OUTPUT));
  sprintf(file, "both/rank_%d.dat", rank);
  sprintf(text, "checkpoint C rank %d\n", rank);
  CHECK(route_and_write(file, text, path));
  CHECK_OK(SCR_Complete_output(1));
  sprintf(path, "%s/both/rank_%d.dat", cwd, rank);
  CHECK(file_holds(path, text));

  /* Invalid on one rank: invalid everywhere. */
  CHECK_OK(SCR_Start_checkpoint());
  sprintf(file, "ckpt_d/rank_%d.dat", rank);
  CHECK(route_and_write(file, "checkpoint D\n", path));
  expect_error_from("SCR_Complete_checkpoint");
  CHECK_ERR(SCR_Complete_checkpoint(rank == ranks - 1 ? 0 : 1));

  /* Drop forgets out.1 (its files stay); Delete removes both.3 everywhere. */
  CHECK_OK(SCR_Drop("out.1"));
  CHECK_OK(SCR_Delete("both.3"));
  sprintf(path, "%s/both/rank_%d.dat", cwd, rank);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(access(path, F_OK) != 0);
  sprintf(path, "%s/results/out_%d.txt", cwd, rank);
  CHECK(access(path, F_OK) == 0);
  /* Mark named.ckpt (not the newest) as the one to restart from. */
  CHECK_OK(SCR_Current("named.ckpt"));
  /* As SCR: a name nobody knows is no error (a warning, nothing changes). */
  CHECK_OK(SCR_Drop("out.1"));
  CHECK_OK(SCR_Delete("no.such.dataset"));
  CHECK_OK(SCR_Current("no.such.dataset"));

  flag = -1;
  CHECK_OK(SCR_Should_exit(&flag));
  CHECK(flag == 0);
}

static void restart_run(void) {
  char name[SCR_MAX_FILENAME], started[SCR_MAX_FILENAME], file[SCR_MAX_FILENAME];
  char path[SCR_MAX_FILENAME], text[128], older[SCR_MAX_FILENAME];
  int flag = 0;

  /* SCR_Current chose named.ckpt. */
  CHECK_OK(SCR_Have_restart(&flag, name));
  CHECK(flag == 1);
  CHECK_STR(name, "named.ckpt");
  CHECK_OK(SCR_Start_restart(started));
  CHECK_STR(started, "named.ckpt");
  sprintf(file, "ckpt_b/rank_%d.dat", rank);
  sprintf(text, "checkpoint B rank %d\n", rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(file_holds(path, text));
  /* A file that is not part of the checkpoint. */
  expect_error_from("SCR_Route_file");
  CHECK_ERR(SCR_Route_file("ckpt/not_there.dat", path));
  CHECK(path[0] == '\0'); /* never the earlier route's path */
  /* One buffer for the name and the result, as SCR allows. */
  strcpy(path, file);
  CHECK_OK(SCR_Route_file(path, path));
  CHECK(file_holds(path, text));
  /* The file name alone, as SCR documents for a restart: ckpt_b/ is found. */
  sprintf(file, "rank_%d.dat", rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(file_holds(path, text));
  /* Rank 0 refuses it: SCR offers the next older one, the generated-name
   * checkpoint A. */
  expect_error_from("SCR_Complete_restart");
  CHECK_ERR(SCR_Complete_restart(rank == 0 ? 0 : 1));

  CHECK_OK(SCR_Have_restart(&flag, name));
  CHECK(flag == 1);
  CHECK(strcmp(name, "named.ckpt") != 0 && strlen(name) > 0);
  strcpy(older, name);
  CHECK_OK(SCR_Start_restart(NULL));
  sprintf(file, "ckpt/rank_%d.dat", rank);
  sprintf(text, "checkpoint A rank %d\n", rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(file_holds(path, text));
  CHECK_OK(SCR_Complete_restart(1));
  CHECK_OK(SCR_Have_restart(&flag, name));
  CHECK(flag == 0);
  CHECK_STR(name, "");
  if (rank == 0) printf("RESTARTED-FROM %s\n", older);

  /* Carry on checkpointing. */
  CHECK_OK(SCR_Need_checkpoint(&flag));
  CHECK_OK(SCR_Start_output("after.restart", SCR_FLAG_CHECKPOINT));
  sprintf(file, "ckpt_e/rank_%d.dat", rank);
  CHECK(route_and_write(file, "checkpoint E\n", path));
  CHECK_OK(SCR_Complete_output(1));

  /* Take the rejected checkpoint's name again (recomputed data), then a
   * newer one, and mark the new named.ckpt current: a name refers to the
   * newest dataset carrying it, not to the rejected one. */
  CHECK_OK(SCR_Start_output("named.ckpt", SCR_FLAG_CHECKPOINT));
  sprintf(file, "ckpt_b/rank_%d.dat", rank);
  sprintf(text, "checkpoint B2 rank %d\n", rank);
  CHECK(route_and_write(file, text, path));
  CHECK_OK(SCR_Complete_output(1));
  CHECK_OK(SCR_Start_output("last.one", SCR_FLAG_CHECKPOINT));
  sprintf(file, "ckpt_f/rank_%d.dat", rank);
  CHECK(route_and_write(file, "checkpoint F\n", path));
  CHECK_OK(SCR_Complete_output(1));
  CHECK_OK(SCR_Current("named.ckpt"));
  CHECK_OK(SCR_Should_exit(&flag));
  CHECK(flag == 0);
}

/* Third run, every node lost: the prefix's current checkpoint is fetched. */
static void current_run(void) {
  char name[SCR_MAX_FILENAME], file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME], text[128];
  int flag = 0;
  CHECK_OK(SCR_Have_restart(&flag, name));
  CHECK(flag == 1);
  CHECK_STR(name, "named.ckpt");
  CHECK_OK(SCR_Start_restart(name));
  sprintf(file, "ckpt_b/rank_%d.dat", rank);
  sprintf(text, "checkpoint B2 rank %d\n", rank);
  CHECK_OK(SCR_Route_file(file, path));
  CHECK(file_holds(path, text));
  CHECK_OK(SCR_Complete_restart(1));
  if (rank == 0) printf("RESTARTED-FROM %s\n", name);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  check_rank = rank;
  if (argc != 2 || (strcmp(argv[1], "first") != 0 && strcmp(argv[1], "restart") != 0 &&
                    strcmp(argv[1], "current") != 0)) {
    if (rank == 0) fprintf(stderr, "usage: c_api_all first|restart|current\n");
    MPI_Finalize();
    return 2;
  }
  if (!getenv("E2E_CACHE")) {
    if (rank == 0) fprintf(stderr, "c_api_all: set E2E_CACHE to SCR_CACHE_BASE\n");
    MPI_Finalize();
    return 2;
  }

  /* Version: no SCR_Init needed. */
  CHECK_STR(SCR_Get_version(), SCR_VERSION);
  /* As SCR 3.1 spells them: strings. */
  CHECK_STR(SCR_VERSION, "v3.1.0");
  CHECK_STR(SCR_MAJOR_VERSION, "3");
  CHECK_STR(SCR_MINOR_VERSION, "1");
  CHECK_STR(SCR_PATCH_VERSION, "0");
  CHECK(SCRPP_VERSION_MAJOR >= 0 && strlen(SCRPP_VERSION) > 0);
  configure();

  CHECK_OK(SCR_Init());
  CHECK_STR(SCR_Get_version(), SCR_VERSION);
  /* Queries still work after SCR_Init; settings are refused. */
  {
    const char* v = SCR_Config("SCR_FLUSH");
    CHECK_STR(v, "1");
    free((void*)v);
    expect_error_from("SCR_Config");
    CHECK(SCR_Config("SCR_FLUSH=5") == NULL);
    v = SCR_Config("SCR_FLUSH");
    CHECK_STR(v, "1");
    free((void*)v);
    /* A query of a descriptor item is a query too (SCR's own example). */
    v = SCR_Config("CKPT=0 TYPE");
    CHECK_STR(v, "SINGLE");
    free((void*)v);
    expect_error_from("SCR_Config");
    CHECK(SCR_Config("CKPT=0 TYPE=XOR") == NULL);
  }

  if (strcmp(argv[1], "first") == 0) first_run();
  else if (strcmp(argv[1], "restart") == 0) restart_run();
  else current_run();

  CHECK_OK(SCR_Finalize());
  char verdict[64];
  sprintf(verdict, "c_api_all %s", argv[1]);
  int code = check_verdict(verdict);
  MPI_Finalize();
  return code;
}
