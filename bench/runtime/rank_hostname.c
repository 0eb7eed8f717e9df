/*
 * Preloaded (LD_PRELOAD) into each process of many_files.sh's SCR 3.1 jobs:
 * gethostname() answers "node<R>" for Open MPI world rank R. SCR 3.1 groups
 * ranks into nodes by host name; on this one machine that makes each rank a
 * node of its own, so the XOR sets span four "nodes" as SCR++'s simulated
 * ones do.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int gethostname(char* name, size_t len) {
  const char* rank = getenv("OMPI_COMM_WORLD_RANK");
  int n = snprintf(name, len, "node%s", rank ? rank : "0");
  return n >= 0 && (size_t)n < len ? 0 : -1;
}
