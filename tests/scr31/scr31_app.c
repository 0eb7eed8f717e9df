/*
 * scr31_app: an application switching from SCR 3.1 to SCR++ in the middle of
 * a campaign (scr31_prefix.sh runs it on prefixes SCR 3.1 wrote).
 *
 *   scr31_app OUTDIR NAME   restart from whatever SCR offers, reading every
 *                           file of the checkpoint (listed by
 *                           SCRPP_Restart_file; each process takes every
 *                           size-th one) and copying its bytes to
 *                           OUTDIR/<its name>; then write checkpoint NAME
 *                           (one file per process, "NAME/rank_<r>.dat"
 *                           holding "NAME rank <r>").
 *
 * Rank 0 prints "RESTARTED <name>" (or "RESTARTED none") and the verdict.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../api/check.h"
#include "../api/text_ckpt.h"
#include "scr.h"
#include "scr/scr_ext.h"

static int rank, ranks;

/* mkdir -p of the directories above path. */
static int make_parents(const char* path) {
  char dir[SCR_MAX_FILENAME];
  snprintf(dir, sizeof dir, "%s", path);
  for (char* p = dir + 1; *p; ++p) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return 0;
    *p = '/';
  }
  return 1;
}

static int copy_out(const char* from, const char* to) {
  FILE* in = fopen(from, "rb");
  if (!in) return 0;
  int ok = make_parents(to);
  FILE* out = ok ? fopen(to, "wb") : NULL;
  char buf[65536];
  size_t n;
  while (out && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = ok && fwrite(buf, 1, n, out) == n;
  ok = ok && out && !ferror(in);
  fclose(in);
  if (out) ok = fclose(out) == 0 && ok;
  return ok;
}

static int read_checkpoint(const char* outdir) {
  int count = 0, ok = SCRPP_Restart_file_count(&count) == SCR_SUCCESS && count > 0;
  for (int i = rank; ok && i < count; i += ranks) {
    char name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME], to[2 * SCR_MAX_FILENAME];
    int writer = -1;
    unsigned long long size = 0;
    ok = SCRPP_Restart_file(i, name, &writer, &size) == SCR_SUCCESS &&
         SCR_Route_file(name, path) == SCR_SUCCESS;
    snprintf(to, sizeof to, "%s/%s", outdir, name);
    ok = ok && copy_out(path, to);
  }
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  check_rank = rank;
  if (argc != 3) {
    if (rank == 0) fprintf(stderr, "usage: scr31_app OUTDIR NAME\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  CHECK_OK(SCR_Init());
  int have = 0;
  char name[SCR_MAX_FILENAME] = "";
  CHECK_OK(SCR_Have_restart(&have, name));
  if (have) {
    CHECK_OK(SCR_Start_restart(name));
    int ok = read_checkpoint(argv[1]);
    CHECK(ok);
    CHECK_OK(SCR_Complete_restart(ok));
  }
  if (rank == 0) printf("RESTARTED %s\n", have ? name : "none");
  CHECK(text_ckpt_write("", argv[2], rank));
  CHECK_OK(SCR_Finalize());
  int rc = check_verdict("scr31_app");
  MPI_Finalize();
  return rc;
}
