/*
 * scr_bench: times what an application sees of SCR++ through the C API.
 *
 *   scr_bench write   BYTES [COMPUTE_STEPS]   one checkpoint of BYTES per rank
 *                                          (after BENCH_WARM_CHECKPOINTS others)
 *   scr_bench restart                         SCR_Init (rebuild/fetch) + read back
 *   scr_bench rescale COPY_DIR                restart at any size + a plain copy
 *
 * write prints, as one JSON line from rank 0: seconds blocked in
 * SCR_Complete_output, seconds to write the data into cache, seconds until the
 * flush finished (sync: inside Complete; async: measured by SCR_Finalize
 * waiting), and the number of compute steps run while an async flush was in
 * flight (a counter, not a timing).
 * restart prints the seconds spent in SCR_Init and whether the data matched.
 * With BENCH_COPY_DIR set, write and restart also time a plain parallel copy
 * (read, write, fsync) of each process's file into that directory: from the
 * cache after SCR_Complete_output (the baseline of a flush), from the prefix
 * after the restart (the baseline of a fetch).
 * rescale takes the checkpoint of `write` (W files of BYTES, W ranks) on any
 * number of ranks N: rank r reads bytes [r*W*BYTES/N, (r+1)*W*BYTES/N) of
 * the concatenated files, routing every file that holds part of them, and
 * checks them. It prints the seconds from SCR_Init to the end of
 * SCR_Complete_restart, the node-local copies and checks SCR++ made for the
 * restart (files under the cache's scr.rescale.* directories), and the
 * seconds a plain parallel copy of the same bytes from the prefix (from the
 * cache for a same-size restart from it) to COPY_DIR takes in the same run.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scr.h"
#include "scr/scr_ext.h"

static double now(void) { return MPI_Wtime(); }

static void fill(unsigned char* buf, size_t n, int rank, uint64_t offset) {
  for (size_t i = 0; i < n; ++i) buf[i] = (unsigned char)((offset + i) * 131 + rank * 7 + 1);
}

static double max_all(double v) {
  double out;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

/* The baseline of a flush or a fetch: what `cp` and `sync` do, one file,
 * 1 MiB at a time, fsync'd. Returns 0 on any error. */
static int plain_copy(const char* src, const char* dst) {
  static unsigned char buf[1 << 20];
  FILE* in = fopen(src, "rb");
  FILE* out = in ? fopen(dst, "wb") : NULL;
  int ok = in && out;
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
  if (out) {
    ok = ok && fflush(out) == 0 && fsync(fileno(out)) == 0;
    if (fclose(out) != 0) ok = 0;
  }
  if (in) fclose(in);
  return ok;
}

/* BENCH_COPY_DIR set: every process copies `src` into BENCH_COPY_DIR<suffix>
 * as rank_<r>.dat, all at once; returns the slowest one's seconds (-1 if any
 * copy failed). The baseline is copied once before SCR's transfer and once
 * after it, into fresh directories, and the faster copy counts: on this
 * machine whichever copy of the same bytes runs first in a job is 10-20%
 * slower, and one copy would favour whichever side goes second. */
static double timed_plain_copies(int rank, const char* src, const char* suffix) {
  const char* base = getenv("BENCH_COPY_DIR");
  if (!base) return 0;
  char dir[SCR_MAX_FILENAME], dst[2 * SCR_MAX_FILENAME];
  snprintf(dir, sizeof dir, "%s%s", base, suffix);
  snprintf(dst, sizeof dst, "%s/rank_%d.dat", dir, rank);
  if (rank == 0) mkdir(dir, 0700);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  int ok = plain_copy(src, dst), all_ok;
  double t = max_all(now() - t0);
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  /* Removed at once: on this machine kind (a VM whose freed memory goes back
   * to the host) every GiB kept in tmpfs makes the next fresh pages dearer,
   * and the copy must not tax the transfer measured after it. */
  unlink(dst);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) rmdir(dir);
  return all_ok ? t : -1;
}

/* One checkpoint `dataset` of BYTES per rank (<dataset>/rank_<r>.dat, its
 * cache path in `path`): the seconds to write it and blocked in
 * SCR_Complete_output; returns SCR_Complete_output's code. */
static int write_checkpoint(int rank, const char* dataset, uint64_t bytes, unsigned char* buf,
                            char* path, double* t_write, double* t_complete) {
  const size_t piece = 1 << 20;
  char name[SCR_MAX_FILENAME];
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  SCR_Start_output(dataset, SCR_FLAG_CHECKPOINT);
  snprintf(name, sizeof name, "%s/rank_%d.dat", dataset, rank);
  SCR_Route_file(name, path);
  FILE* f = fopen(path, "wb");
  for (uint64_t off = 0; off < bytes; off += piece) {
    size_t n = bytes - off < piece ? (size_t)(bytes - off) : piece;
    fill(buf, n, rank, off);
    fwrite(buf, 1, n, f);
  }
  fflush(f);
  fsync(fileno(f));
  fclose(f);
  *t_write = now() - t0;
  /* Complete_output is timed from the moment every process is in it, as the
   * redundancy bench times the encode from a barrier: a process that ended
   * its write early would otherwise count the slowest process's write as
   * time blocked in SCR. */
  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = now();
  int rc = SCR_Complete_output(1);
  *t_complete = now() - t1;
  return rc;
}

/* BENCH_WARM_CHECKPOINTS=N: N checkpoints (bench.warm.<i>) before the one
 * measured, so that it finds the cache as a running application does, its
 * store full (SCR_CACHE_SIZE) and the oldest checkpoint evicted for it. */
static int bench_write(int rank, int ranks, uint64_t bytes, int compute) {
  unsigned char* buf = malloc(1 << 20);
  char path[SCR_MAX_FILENAME];
  double t0 = now();
  SCR_Init();
  double t_init = now() - t0;
  const char* warm_env = getenv("BENCH_WARM_CHECKPOINTS");
  int warm = warm_env ? atoi(warm_env) : 0;
  double t_write, t_complete;
  for (int i = 0; i < warm; ++i) {
    char dataset[64];
    snprintf(dataset, sizeof dataset, "bench.warm.%d", i);
    write_checkpoint(rank, dataset, bytes, buf, path, &t_write, &t_complete);
  }
  int rc = write_checkpoint(rank, "bench.1", bytes, buf, path, &t_write, &t_complete);
  /* Compute while a background flush runs; count the steps. */
  int steps = 0;
  char flushed[SCR_MAX_FILENAME];
  snprintf(flushed, sizeof flushed, "bench.1/rank_%d.dat", rank);
  for (int s = 0; s < compute; ++s) {
    struct stat st;
    int done = stat(flushed, &st) == 0 && (uint64_t)st.st_size == bytes;
    int all_done;
    MPI_Allreduce(&done, &all_done, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_done) break;
    double x = 0;
    for (int i = 0; i < 200000; ++i) x += i * 0.5;
    if (x < 0) puts("");
    ++steps;
  }
  /* The same file copied plainly to the prefix's file system, before and
   * after SCR_Finalize (which flushes it when SCR_FLUSH > 1 left it
   * unflushed). */
  double t_copy = timed_plain_copies(rank, path, "");
  MPI_Barrier(MPI_COMM_WORLD);
  double t2 = now();
  SCR_Finalize();
  double t_finalize = now() - t2;
  double t_copy_after = timed_plain_copies(rank, path, ".after");
  double w = max_all(t_write), c = max_all(t_complete), fz = max_all(t_finalize), in = max_all(t_init);
  if (rank == 0)
    printf("{\"phase\":\"write\",\"ranks\":%d,\"bytes_per_rank\":%llu,\"init_s\":%.4f,\"write_s\":%.4f,"
           "\"complete_blocked_s\":%.4f,\"finalize_s\":%.4f,\"plain_copy_s\":%.4f,"
           "\"plain_copy_other_s\":%.4f,\"steps_during_flush\":%d,\"warm_checkpoints\":%d,\"rc\":%d}\n",
           ranks, (unsigned long long)bytes, in, w, c, fz, t_copy, t_copy_after, steps, warm, rc);
  free(buf);
  return rc;
}

static int bench_restart(int rank, int ranks) {
  /* The baseline's first copy, of the checkpoint the write phase made. */
  char src[3 * SCR_MAX_FILENAME];
  const char* prefix = getenv("SCR_PREFIX");
  snprintf(src, sizeof src, "%s/bench.1/rank_%d.dat", prefix ? prefix : ".", rank);
  double t_copy_before = access(src, R_OK) == 0 ? timed_plain_copies(rank, src, ".before") : 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  SCR_Init();
  double t_init = max_all(now() - t0);
  int have = 0, ok = 1;
  char name[SCR_MAX_FILENAME] = "", file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  SCR_Have_restart(&have, name);
  if (have) {
    SCR_Start_restart(name);
    snprintf(file, sizeof file, "%s/rank_%d.dat", name, rank);
    ok = SCR_Route_file(file, path) == SCR_SUCCESS;
    FILE* f = ok ? fopen(path, "rb") : NULL;
    unsigned char got[4096], want[4096];
    uint64_t off = 0;
    size_t n;
    while (f && (n = fread(got, 1, sizeof got, f)) > 0) {
      fill(want, n, rank, off);
      if (memcmp(got, want, n) != 0) ok = 0;
      off += n;
    }
    if (f) fclose(f);
    SCR_Complete_restart(ok);
  }
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  /* The baseline of a fetch: the prefix's copy of the file copied plainly. */
  snprintf(src, sizeof src, "%s/%s/rank_%d.dat", prefix ? prefix : ".", name, rank);
  double t_copy = have ? timed_plain_copies(rank, src, "") : 0;
  if (rank == 0)
    printf("{\"phase\":\"restart\",\"ranks\":%d,\"init_s\":%.4f,\"plain_copy_s\":%.4f,"
           "\"plain_copy_other_s\":%.4f,\"restarted\":\"%s\",\"data_ok\":%d}\n",
           ranks, t_init, t_copy, t_copy_before, have ? name : "", all_ok);
  SCR_Finalize();
  return all_ok && have ? 0 : 1;
}

/* Files below the cache base in the rescale directories: copies (names of
 * the checkpoint) and checks (the .scr/checked.* marks). */
static void count_rescale_files(long* copies, long* checks) {
  const char* base = getenv("SCR_CACHE_BASE");
  char cmd[4096];
  *copies = *checks = 0;
  if (!base) return;
  snprintf(cmd, sizeof cmd, "find '%s' -path '*/scr.rescale.*' -type f -name '*.dat' | wc -l; "
           "find '%s' -path '*/scr.rescale.*/.scr/*' -type f -name 'checked.*' | wc -l", base, base);
  FILE* p = popen(cmd, "r");
  if (!p) return;
  if (fscanf(p, "%ld %ld", copies, checks) != 2) *copies = *checks = -1;
  pclose(p);
}

/* The parts of bytes [lo, hi) of the concatenation of `writers` files of
 * `bytes` each: file index, offset in it and length, at most `max` parts.
 * Returns how many. */
typedef struct {
  int file;
  uint64_t off, len;
  char routed[SCR_MAX_FILENAME]; /* the path SCR_Route_file gave */
} Part;

static int parts_of(uint64_t lo, uint64_t hi, uint64_t bytes, int writers, Part* out, int max) {
  int n = 0;
  for (int w = 0; w < writers && n < max; ++w) {
    uint64_t a = (uint64_t)w * bytes, b = a + bytes;
    uint64_t s = lo > a ? lo : a, e = hi < b ? hi : b;
    if (s < e) out[n++] = (Part){w, s - a, e - s, ""};
  }
  return n;
}

static int read_part(const char* path, int writer, uint64_t off, uint64_t len, const char* copy_to) {
  FILE* in = fopen(path, "rb");
  FILE* out = copy_to ? fopen(copy_to, "wb") : NULL;
  if (!in || (copy_to && !out) || fseek(in, (long)off, SEEK_SET) != 0) {
    if (in) fclose(in);
    if (out) fclose(out);
    return 0;
  }
  static unsigned char got[1 << 20], want[1 << 20];
  int ok = 1;
  for (uint64_t done = 0; done < len && ok;) {
    size_t n = len - done < sizeof got ? (size_t)(len - done) : sizeof got;
    if (fread(got, 1, n, in) != n) ok = 0;
    else if (out) ok = fwrite(got, 1, n, out) == n;
    else {
      fill(want, n, writer, off + done);
      ok = memcmp(got, want, n) == 0;
    }
    done += n;
  }
  fclose(in);
  if (out && fclose(out) != 0) ok = 0;
  return ok;
}

static int bench_rescale(int rank, int ranks, const char* copy_dir) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  SCR_Init();
  double t_init = now() - t0;
  int have = 0, ok = 1, writers = 0;
  unsigned long long bytes = 0;
  long copies = 0, checks = 0;
  Part parts[64];
  int nparts = 0;
  char name[SCR_MAX_FILENAME], file[SCR_MAX_FILENAME];
  SCR_Have_restart(&have, name);
  if (have) {
    SCR_Start_restart(name);
    ok = SCRPP_Restart_ranks(&writers) == SCR_SUCCESS &&
         SCRPP_Restart_file(0, NULL, NULL, &bytes) == SCR_SUCCESS;
    uint64_t total = (uint64_t)writers * bytes;
    nparts = parts_of(total * (uint64_t)rank / (uint64_t)ranks, total * (uint64_t)(rank + 1) / (uint64_t)ranks,
                      bytes, writers, parts, 64);
    for (int i = 0; i < nparts; ++i) {
      snprintf(file, sizeof file, "%s/rank_%d.dat", name, parts[i].file);
      if (SCR_Route_file(file, parts[i].routed) != SCR_SUCCESS ||
          !read_part(parts[i].routed, parts[i].file, parts[i].off, parts[i].len, NULL))
        ok = 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) count_rescale_files(&copies, &checks);
    SCR_Complete_restart(ok);
  }
  double t_restart = max_all(now() - t0);
  t_init = max_all(t_init);
  /* The baseline: the same byte ranges copied from the prefix, in parallel. */
  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = now();
  int copied = 1;
  const char* prefix = getenv("SCR_PREFIX");
  for (int i = 0; i < nparts; ++i) {
    char src[2 * SCR_MAX_FILENAME], dst[2 * SCR_MAX_FILENAME];
    snprintf(src, sizeof src, "%s/%s/rank_%d.dat", prefix ? prefix : ".", name, parts[i].file);
    /* A checkpoint restarted from the cache at its own size is not in the
     * prefix: copy from where it lies in the cache. */
    if (access(src, R_OK) != 0) snprintf(src, sizeof src, "%s", parts[i].routed);
    snprintf(dst, sizeof dst, "%s/copy_%d_%d.dat", copy_dir, rank, parts[i].file);
    if (!read_part(src, parts[i].file, parts[i].off, parts[i].len, dst)) copied = 0;
  }
  double t_copy = max_all(now() - t1);
  int all_ok;
  int both = ok && copied;
  MPI_Allreduce(&both, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("{\"phase\":\"rescale\",\"writers\":%d,\"ranks\":%d,\"bytes_per_file\":%llu,\"init_s\":%.4f,"
           "\"restart_s\":%.4f,\"plain_copy_s\":%.4f,\"node_copies\":%ld,\"node_checks\":%ld,"
           "\"restarted\":\"%s\",\"data_ok\":%d}\n",
           writers, ranks, bytes, t_init, t_restart, t_copy, copies, checks, have ? name : "", all_ok);
  SCR_Finalize();
  return all_ok && have ? 0 : 1;
}

int main(int argc, char** argv) {
  /* FUNNELED: SCR_FLUSH_ASYNC=1 copies in a second thread. BENCH_MPI_SINGLE=1
   * starts MPI without thread support (as MPI_Init does), for the test that
   * SCR++ then flushes synchronously. */
  int provided = 0;
  const char* single = getenv("BENCH_MPI_SINGLE");
  int level = single && !strcmp(single, "1") ? MPI_THREAD_SINGLE : MPI_THREAD_FUNNELED;
  MPI_Init_thread(&argc, &argv, level, &provided);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int rc = 1;
  if (argc >= 3 && !strcmp(argv[1], "write"))
    rc = bench_write(rank, ranks, strtoull(argv[2], NULL, 10), argc > 3 ? atoi(argv[3]) : 0);
  else if (argc >= 2 && !strcmp(argv[1], "restart"))
    rc = bench_restart(rank, ranks);
  else if (argc >= 3 && !strcmp(argv[1], "rescale"))
    rc = bench_rescale(rank, ranks, argv[2]);
  else if (rank == 0)
    fprintf(stderr, "usage: scr_bench write BYTES [COMPUTE_STEPS] | scr_bench restart | scr_bench rescale COPY_DIR\n");
  MPI_Finalize();
  return rc;
}
