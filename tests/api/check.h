/*
 * Tiny check helpers for the C API programs: every check prints what failed
 * with its line, counts, and the program ends with an agreed verdict.
 */
#ifndef SCR_API_CHECK_H
#define SCR_API_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_rank = -1;
static int check_passed = 0;
static int check_failed = 0;

static inline void check_report(int ok, const char* what, int line) {
  if (ok) {
    ++check_passed;
  } else {
    ++check_failed;
    fprintf(stderr, "CHECK FAILED rank %d line %d: %s\n", check_rank, line, what);
    fflush(stderr);
  }
}

/* Any condition. */
#define CHECK(cond) check_report((cond) != 0, #cond, __LINE__)
/* A call that must succeed. */
#define CHECK_OK(call) check_report((call) == SCR_SUCCESS, #call " == SCR_SUCCESS", __LINE__)
/* A call that must fail with an error code (and not crash). */
#define CHECK_ERR(call) check_report((call) != SCR_SUCCESS, #call " != SCR_SUCCESS", __LINE__)
#define CHECK_STR(got, want) \
  check_report((got) != NULL && strcmp((got), (want)) == 0, #got " == \"" want "\"", __LINE__)

/* Tell the test script which error message comes next (stdout, rank 0). */
static inline void expect_error_from(const char* call) {
  if (check_rank == 0) {
    printf("EXPECT-ERROR %s\n", call);
    fflush(stdout);
  }
}

/* Agree on the verdict; returns the process exit code. */
static inline int check_verdict(const char* program) {
  int failed = 0, passed = 0;
  MPI_Allreduce(&check_failed, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&check_passed, &passed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (check_rank == 0) {
    if (failed == 0)
      printf("%s: ALL %d CHECKS PASSED\n", program, passed);
    else
      printf("%s: %d OF %d CHECKS FAILED\n", program, failed, failed + passed);
    fflush(stdout);
  }
  return failed == 0 ? 0 : 1;
}

#endif /* SCR_API_CHECK_H */
