/*
 * c_api_current: SCR_Current chooses the checkpoint a restart loads.
 *
 *   c_api_current write            checkpoints c1, c2, c3 (one file per rank
 *                                  holding the checkpoint's name)
 *   c_api_current current NAME     SCR_Current(NAME) before SCR_Have_restart,
 *                                  then restart from what is offered, check
 *                                  the bytes and checkpoint c4
 *   c_api_current restart          the same without SCR_Current (the job's
 *                                  SCR_CURRENT setting chooses)
 *   c_api_current drop NAME        SCR_Current(NAME), then SCR_Drop(NAME):
 *                                  CURRENT moves to the next older checkpoint
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

static int write_ckpt(const char* name) { return text_ckpt_write("ckpt", name, rank); }
static int read_ckpt(const char* name) { return text_ckpt_read("ckpt", name, rank); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  check_rank = rank;
  CHECK_OK(SCR_Init());
  if (argc == 2 && !strcmp(argv[1], "write")) {
    CHECK(write_ckpt("c1"));
    CHECK(write_ckpt("c2"));
    CHECK(write_ckpt("c3"));
  } else if ((argc == 3 && !strcmp(argv[1], "current")) || (argc == 2 && !strcmp(argv[1], "restart"))) {
    int have = 0;
    char name[SCR_MAX_FILENAME] = "";
    if (argc == 3) CHECK_OK(SCR_Current(argv[2]));
    CHECK_OK(SCR_Have_restart(&have, name));
    if (have) {
      char started[SCR_MAX_FILENAME] = "";
      CHECK_OK(SCR_Start_restart(started));
      CHECK(strcmp(started, name) == 0);
      int ok = read_ckpt(name);
      CHECK(ok);
      CHECK_OK(SCR_Complete_restart(ok));
    }
    if (rank == 0) printf("RESTARTED %s\n", have ? name : "none");
    CHECK(write_ckpt("c4"));
  } else if (argc == 3 && !strcmp(argv[1], "drop")) {
    CHECK_OK(SCR_Current(argv[2]));
    CHECK_OK(SCR_Drop(argv[2]));
  } else {
    if (rank == 0) fprintf(stderr, "usage: c_api_current write | current NAME | restart | drop NAME\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  CHECK_OK(SCR_Finalize());
  int rc = check_verdict("c_api_current");
  MPI_Finalize();
  return rc;
}
