/*
 * rescale_probe: the restart side of the different-size scenarios, through
 * the C API and its extension (scr/scr_ext.h).
 *
 *   rescale_probe OUTDIR [--bogus NAME] [--valid]
 *
 * Takes the checkpoint SCR offers. Rank 0 prints what the listing API says:
 *   WRITERS <n> FILES <count>
 *   FILE <name> <rank> <size>          (one per file)
 * At a different size every rank routes every listed file (so ranks of a
 * node ask for the same files at once) and checks the size of what it
 * gets; rank r copies file i to OUTDIR/<name> when i % ranks == r, for the
 * scenario to compare bytes. At the same size (nothing changes there) each
 * rank routes and copies the files it wrote.
 * With --bogus every rank also routes NAME, which must fail. With --valid
 * every rank tells SCR_Complete_restart the restart is valid whatever it
 * saw (SCR++ itself must refuse a restart in which a file failed its
 * check). Rank 0 ends with "COMPLETE <0|1> FAILED_ON <n>" (1: it succeeded;
 * n: on how many ranks it failed) and "NEXT <name>" (the checkpoint offered
 * afterwards, "-" for none), or "NONE" when nothing was offered. Exits
 * non-zero when a check failed (ignored with --valid).
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scr.h"
#include "scr/scr_ext.h"

static int rank_g;

static int fail(const char* what, const char* name) {
  fprintf(stderr, "rescale_probe rank %d: %s %s\n", rank_g, what, name ? name : "");
  return 0;
}

static int make_parents(const char* path) {
  char buf[2 * SCR_MAX_FILENAME];
  snprintf(buf, sizeof buf, "%s", path);
  for (char* p = buf + 1; *p; ++p)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0755) != 0 && errno != EEXIST) return 0;
      *p = '/';
    }
  return 1;
}

static int copy_to(const char* src, const char* dst) {
  if (!make_parents(dst)) return 0;
  FILE* in = fopen(src, "rb");
  FILE* out = fopen(dst, "wb");
  int ok = in && out;
  char buf[65536];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
  if (in) fclose(in);
  if (out && fclose(out) != 0) ok = 0;
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_g);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const char* bogus = NULL;
  int force_valid = 0;
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--bogus") && i + 1 < argc) bogus = argv[++i];
    else if (!strcmp(argv[i], "--valid")) force_valid = 1;
    else argc = 0;
  }
  if (argc < 2) {
    if (rank_g == 0) fprintf(stderr, "usage: rescale_probe OUTDIR [--bogus NAME] [--valid]\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const char* outdir = argv[1];
  if (SCR_Init() != SCR_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
  int have = 0, ok = 1;
  char dataset[SCR_MAX_FILENAME];
  if (SCR_Have_restart(&have, dataset) != SCR_SUCCESS) ok = fail("SCR_Have_restart failed", NULL);
  if (!have) {
    if (rank_g == 0) printf("NONE\n");
  } else {
    if (SCR_Start_restart(dataset) != SCR_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 3);
    int writers = 0, count = 0;
    if (SCRPP_Restart_ranks(&writers) != SCR_SUCCESS) ok = fail("SCRPP_Restart_ranks failed", NULL);
    if (SCRPP_Restart_file_count(&count) != SCR_SUCCESS) ok = fail("SCRPP_Restart_file_count failed", NULL);
    if (rank_g == 0) printf("WRITERS %d FILES %d\n", writers, count);
    for (int i = 0; i < count; ++i) {
      char name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME], dst[2 * SCR_MAX_FILENAME];
      int rank = -1;
      unsigned long long size = 0;
      if (SCRPP_Restart_file(i, name, &rank, &size) != SCR_SUCCESS) {
        ok = fail("SCRPP_Restart_file failed", NULL);
        continue;
      }
      if (rank_g == 0) printf("FILE %s %d %llu\n", name, rank, size);
      int mine = writers == ranks ? rank == rank_g : i % ranks == rank_g;
      if (writers == ranks && !mine) continue;
      if (SCR_Route_file(name, path) != SCR_SUCCESS) {
        ok = fail("cannot route", name);
        continue;
      }
      struct stat st;
      if (stat(path, &st) != 0 || (unsigned long long)st.st_size != size) ok = fail("wrong size of", path);
      snprintf(dst, sizeof dst, "%s/%s", outdir, name);
      if (mine && !copy_to(path, dst)) ok = fail("cannot copy", path);
    }
    /* Out of range must be refused. */
    if (SCRPP_Restart_file(count, NULL, NULL, NULL) == SCR_SUCCESS) ok = fail("index past the end accepted", NULL);
    if (bogus) {
      char path[SCR_MAX_FILENAME];
      if (SCR_Route_file(bogus, path) == SCR_SUCCESS) ok = fail("a name not in the dataset was routed:", bogus);
      else if (rank_g == 0) printf("BOGUS refused\n");
    }
    int rc = SCR_Complete_restart(force_valid ? 1 : ok);
    int failed = rc != SCR_SUCCESS, failed_on = 0;
    MPI_Allreduce(&failed, &failed_on, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_g == 0) printf("COMPLETE %d FAILED_ON %d\n", rc == SCR_SUCCESS, failed_on);
    if (force_valid) ok = 1;
    if (SCR_Have_restart(&have, dataset) != SCR_SUCCESS) ok = fail("SCR_Have_restart failed", NULL);
    if (rank_g == 0) printf("NEXT %s\n", have ? dataset : "-");
    /* Outside the phase the listing is refused. */
    if (SCRPP_Restart_file_count(&count) == SCR_SUCCESS) ok = fail("listing outside a restart phase", NULL);
  }
  fflush(stdout);
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  SCR_Finalize();
  MPI_Finalize();
  return all_ok ? 0 : 4;
}
