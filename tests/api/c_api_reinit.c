/*
 * c_api_reinit: SCR_Init after SCR_Finalize starts a new, complete session,
 * as in SCR (LLNL axom's sidre example initializes SCR three times in one
 * process: twice in a test, then again in main).
 *
 *   session 0  SCR_Init fails; later calls fail saying so, not "before SCR_Init"
 *   session 1  SCR_Init, SCR_Finalize (nothing written)
 *   session 2  SCR_Init, checkpoint "s2", SCR_Finalize (which flushes it)
 *   session 3  SCR_Init, restart from "s2" (bytes checked), checkpoint "s3",
 *              SCR_Finalize
 *
 * Rank 0 prints "RESTARTED <name>" (or "RESTARTED none") and the verdict.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "text_ckpt.h"
#include "scr.h"

static int rank;

static int write_ckpt(const char* name) { return text_ckpt_write("", name, rank); }
static int read_ckpt(const char* name) { return text_ckpt_read("", name, rank); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_rank = rank;
  (void)argc;
  (void)argv;

  /* session 0: SCR_Init fails (a user name that is not one path component);
   * the calls after it fail saying so, and a later SCR_Init starts afresh. */
  CHECK(SCR_Config("SCR_USER_NAME=a/b") == NULL);
  CHECK_ERR(SCR_Init());
  int flag = 1;
  CHECK_ERR(SCR_Need_checkpoint(&flag));
  CHECK(flag == 0);
  CHECK_ERR(SCR_Finalize());
  CHECK(SCR_Config("SCR_USER_NAME=") == NULL);

  CHECK_OK(SCR_Init());
  CHECK_OK(SCR_Finalize());

  CHECK_OK(SCR_Init());
  CHECK(write_ckpt("s2"));
  CHECK_OK(SCR_Finalize());

  CHECK_OK(SCR_Init());
  int have = 0;
  char name[SCR_MAX_FILENAME] = "";
  CHECK_OK(SCR_Have_restart(&have, name));
  CHECK(have == 1);
  if (have) {
    CHECK_OK(SCR_Start_restart(name));
    int ok = read_ckpt(name);
    CHECK(ok);
    CHECK_OK(SCR_Complete_restart(ok));
  }
  if (rank == 0) printf("RESTARTED %s\n", have ? name : "none");
  CHECK(write_ckpt("s3"));
  CHECK_OK(SCR_Finalize());

  int rc = check_verdict("c_api_reinit");
  MPI_Finalize();
  return rc;
}
