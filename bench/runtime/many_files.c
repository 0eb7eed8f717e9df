/*
 * many_files: a checkpoint made of many small files per rank.
 *
 *   many_files write   FILES BYTES   one checkpoint "many.1" of FILES files of
 *                                    BYTES bytes per rank (many.1/r<rank>/d<i/256>/f<i>)
 *   many_files restart FILES BYTES   SCR_Init, then read every file back and
 *                                    compare it byte for byte
 *   many_files plain   FILES BYTES   the same files written without SCR, into
 *                                    plain/ (fsync'd), the baseline
 *   many_files floor-ckpt|floor-flush|floor-cache|floor-prefix FILES BYTES
 *                                    the floor of each phase: a plain program
 *                                    making only the system calls the phase
 *                                    needs at least, on files laid out as
 *                                    SCR++ lays them out (below FLOOR_DIR, the
 *                                    cache's dataset directory with as many
 *                                    path components as SCR++'s):
 *     floor-ckpt    the application's create + write of every file (full
 *                   path), then one stat and one open + read + close of each
 *                   (relative to the dataset's directory, as SCR++ does);
 *     floor-flush   a copy of every file to FLOOR_DIR/prefix: open + read
 *                   the source, create + write + fsync the destination;
 *     floor-cache   the rank whose dataset directory is gone (the lost node)
 *                   writes its files again, every other rank reads each of
 *                   its files once; then the application reads every file;
 *     floor-prefix  every rank copies its files from FLOOR_DIR/prefix into
 *                   its cache (each directory synced once), then the
 *                   application reads every file.
 *   With FLOOR_CONTRACT=1 each floor also makes the calls SCR's contract asks
 *   of any implementation of it (SCR 3.1 makes them too):
 *     flush, prefix a copy gets its source's times (SCR_COPY_METADATA=1);
 *     cache         a rebuilt file gets its recorded times back;
 *     prefix        the fetched files are read once more (protected again
 *                   in cache before SCR_Init returns);
 *     cache, prefix SCR_Route_file checks each file exists before the
 *                   application opens it (a stat of its full path);
 *     cache, prefix the application reads only once the checkpoint is whole
 *                   on every rank: SCR_Init is collective and returns after
 *                   the rebuild or fetch, since SCR_Have_restart must give
 *                   every rank the same answer, and whether the checkpoint
 *                   can be restarted depends on every rank's files (a
 *                   barrier).
 *
 * Rank 0 prints one JSON line: {"mode":..., "files":..., "bytes":...,
 * "seconds":..., "finalize_seconds":..., "cpu_seconds":..., "peak_rss_mib":...,
 * "ok":0|1} (seconds of the slowest rank; cpu_seconds the user + system
 * time of every rank in the timed phase, summed, which over the seconds
 * tells how busy the cores were; peak RSS of the largest process). write
 * times SCR_Start_output to the end of SCR_Complete_output (a flush included
 * when one is due); restart times SCR_Init plus the reads; finalize_seconds
 * is SCR_Finalize, which flushes a checkpoint not flushed yet. Exit code 1
 * when anything did not match.
 *
 * MANY_FILES_UNEVEN=1: the last rank has one file fewer than FILES, in every
 * mode. SCR 3.1's SCR_Complete_output sorts every rank's file names to find
 * shared ones; with the same count on every rank, above 1,024 names in all,
 * that sort (DTCMP 1.1.5's sample sort) pairs names wrongly here and the
 * checkpoint fails. Uneven counts take its other sort (many_files.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scr.h"

static int rank;

/* User + system CPU time of this process so far. */
static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static void fill(unsigned char* buf, size_t n, long file) {
  for (size_t i = 0; i < n; ++i) buf[i] = (unsigned char)(i * 31 + (size_t)file * 7 + (size_t)rank * 13 + 1);
}

static void name_of(char* out, size_t n, const char* top, long i) {
  snprintf(out, n, "%s/r%d/d%ld/f%ld", top, rank, i / 256, i);
}

static int mkdirs(const char* path) {
  char tmp[SCR_MAX_FILENAME];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char* p = tmp + 1; *p; ++p) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return 0;
    *p = '/';
  }
  return 1;
}

static int write_one(const char* path, const unsigned char* buf, size_t n, int sync) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return 0;
  int ok = write(fd, buf, n) == (ssize_t)n;
  if (sync && fsync(fd) != 0) ok = 0;
  return close(fd) == 0 && ok;
}

/* Read a file once, relative to a directory held open (as SCR++ reads). */
static int read_at(int dirfd, const char* rel, unsigned char* buf, size_t n) {
  int fd = openat(dirfd, rel, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t got = read(fd, buf, n + 1);
  close(fd);
  return got == (ssize_t)n;
}

/* `times`: the file's recorded times, set as SCR's copies and rebuilds do. */
static int write_at(int dirfd, const char* rel, const unsigned char* buf, size_t n, int sync, int times) {
  int fd = openat(dirfd, rel, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return 0;
  int ok = write(fd, buf, n) == (ssize_t)n;
  if (sync && fsync(fd) != 0) ok = 0;
  if (times) {
    struct timespec ts[2] = {{1700000000, 0}, {1700000000, 0}};
    if (futimens(fd, ts) != 0) ok = 0;
  }
  return close(fd) == 0 && ok;
}

static int sync_dir(const char* path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return 0;
  int ok = fsync(fd) == 0;
  return close(fd) == 0 && ok;
}

static int read_check(const char* path, unsigned char* buf, const unsigned char* want, size_t n) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t got = read(fd, buf, n + 1);
  close(fd);
  return got == (ssize_t)n && memcmp(buf, want, n) == 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 4) {
    if (rank == 0) fprintf(stderr, "usage: many_files write|restart|plain FILES BYTES\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* mode = argv[1];
  long files = atol(argv[2]);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* uneven = getenv("MANY_FILES_UNEVEN");
  if (uneven && atoi(uneven) && rank == size - 1 && files > 1) --files;
  size_t bytes = (size_t)atol(argv[3]);
  unsigned char* buf = malloc(bytes + 1);
  unsigned char* want = malloc(bytes + 1);
  char name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  int ok = 1;
  double t0 = 0, c0 = 0;

  if (!strcmp(mode, "plain")) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    c0 = cpu_seconds();
    for (long i = 0; i < files && ok; ++i) {
      name_of(name, sizeof name, "plain", i);
      fill(buf, bytes, i);
      /* A careful application makes each directory once. */
      if (i % 256 == 0) ok = mkdirs(name);
      ok = ok && write_one(name, buf, bytes, 1);
    }
  } else if (!strcmp(mode, "write")) {
    ok = SCR_Init() == SCR_SUCCESS;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    c0 = cpu_seconds();
    ok = ok && SCR_Start_output("many.1", SCR_FLAG_CHECKPOINT) == SCR_SUCCESS;
    for (long i = 0; i < files && ok; ++i) {
      name_of(name, sizeof name, "many.1", i);
      fill(buf, bytes, i);
      /* SCR_Route_file made the directory of the routed path. */
      ok = SCR_Route_file(name, path) == SCR_SUCCESS && write_one(path, buf, bytes, 0);
    }
    ok = SCR_Complete_output(ok) == SCR_SUCCESS && ok;
  } else if (!strcmp(mode, "restart")) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    c0 = cpu_seconds();
    ok = SCR_Init() == SCR_SUCCESS;
    int have = 0;
    char ckpt[SCR_MAX_FILENAME];
    ok = ok && SCR_Have_restart(&have, ckpt) == SCR_SUCCESS && have && !strcmp(ckpt, "many.1");
    ok = ok && SCR_Start_restart(ckpt) == SCR_SUCCESS;
    for (long i = 0; i < files && ok; ++i) {
      name_of(name, sizeof name, "many.1", i);
      fill(want, bytes, i);
      ok = SCR_Route_file(name, path) == SCR_SUCCESS && read_check(path, buf, want, bytes);
      if (!ok) fprintf(stderr, "many_files rank %d: %s does not read back\n", rank, name);
    }
    if (have) ok = SCR_Complete_restart(ok) == SCR_SUCCESS && ok;
  } else if (!strncmp(mode, "floor-", 6)) {
    const char* floor = getenv("FLOOR_DIR");
    if (!floor) {
      if (rank == 0) fprintf(stderr, "many_files: %s needs FLOOR_DIR\n", mode);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* The same shape as SCR++'s cache: <base>/n<node>/<user>/scr.<job>/scr.dataset.1,
     * with rank r on node r, and the prefix's dataset directory. */
    char cache[SCR_MAX_FILENAME], prefix[SCR_MAX_FILENAME], rel[SCR_MAX_FILENAME], fp[3 * SCR_MAX_FILENAME];
    snprintf(cache, sizeof cache, "%s/cache/n%d/user/scr.job/scr.dataset.1", floor, rank);
    snprintf(prefix, sizeof prefix, "%s/prefix", floor);
    struct stat sb;
    int lost = stat(cache, &sb) != 0;
    const char* contract_env = getenv("FLOOR_CONTRACT");
    int contract = contract_env && !strcmp(contract_env, "1");
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    c0 = cpu_seconds();
    if (lost || !strcmp(mode, "floor-ckpt")) {
      snprintf(fp, sizeof fp, "%s/", cache);
      ok = mkdirs(fp);
    }
    int cdir = open(cache, O_RDONLY | O_DIRECTORY);
    ok = ok && cdir >= 0;
    if (!strcmp(mode, "floor-ckpt")) {
      for (long i = 0; i < files && ok; ++i) {
        name_of(rel, sizeof rel, "many.1", i);
        snprintf(fp, sizeof fp, "%s/%s", cache, rel);
        fill(buf, bytes, i);
        if (i % 256 == 0) ok = mkdirs(fp);
        ok = ok && write_one(fp, buf, bytes, 0);
      }
      for (long i = 0; i < files && ok; ++i) {
        name_of(rel, sizeof rel, "many.1", i);
        ok = fstatat(cdir, rel, &sb, AT_SYMLINK_NOFOLLOW) == 0 && read_at(cdir, rel, buf, bytes);
      }
    } else if (!strcmp(mode, "floor-flush")) {
      snprintf(fp, sizeof fp, "%s/", prefix);
      ok = ok && mkdirs(fp);
      int pdir = open(prefix, O_RDONLY | O_DIRECTORY);
      ok = ok && pdir >= 0;
      for (long i = 0; i < files && ok; ++i) {
        name_of(rel, sizeof rel, "many.1", i);
        snprintf(fp, sizeof fp, "%s/%s", prefix, rel);
        if (i % 256 == 0) ok = mkdirs(fp);
        ok = ok && read_at(cdir, rel, buf, bytes) && write_at(pdir, rel, buf, bytes, 1, contract);
      }
      if (pdir >= 0) close(pdir);
    } else if (!strcmp(mode, "floor-cache") || !strcmp(mode, "floor-prefix")) {
      int from = -1;
      if (!strcmp(mode, "floor-prefix")) {
        from = open(prefix, O_RDONLY | O_DIRECTORY);
        ok = ok && from >= 0 && lost;
      }
      for (long i = 0; i < files && ok; ++i) {
        name_of(rel, sizeof rel, "many.1", i);
        if (!lost) {  /* a survivor: read once (the decode) */
          ok = read_at(cdir, rel, buf, bytes);
          continue;
        }
        snprintf(fp, sizeof fp, "%s/%s", cache, rel);
        if (i % 256 == 0) ok = mkdirs(fp);
        if (from >= 0) ok = ok && read_at(from, rel, buf, bytes);  /* the fetch's read */
        else fill(buf, bytes, i);                                   /* the rebuilt bytes */
        ok = ok && write_at(cdir, rel, buf, bytes, 0, contract);
        if (ok && from >= 0 && ((i + 1) % 256 == 0 || i + 1 == files)) {
          char* slash = strrchr(fp, '/');
          *slash = '\0';
          ok = sync_dir(fp);
        }
      }
      if (from >= 0) close(from);
      /* The fetched checkpoint protected again: every file read once more. */
      for (long i = 0; contract && from >= 0 && i < files && ok; ++i) {
        name_of(rel, sizeof rel, "many.1", i);
        ok = read_at(cdir, rel, buf, bytes);
      }
      /* SCR_Init returns once every rank has its files (see above). */
      if (contract) MPI_Barrier(MPI_COMM_WORLD);
      /* The application reads every file back (each routed first). */
      for (long i = 0; i < files && ok; ++i) {
        name_of(rel, sizeof rel, "many.1", i);
        snprintf(fp, sizeof fp, "%s/%s", cache, rel);
        fill(want, bytes, i);
        ok = (!contract || stat(fp, &sb) == 0) && read_check(fp, buf, want, bytes);
      }
    } else {
      ok = 0;
    }
    if (cdir >= 0) close(cdir);
  } else {
    if (rank == 0) fprintf(stderr, "many_files: unknown mode %s\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double seconds = MPI_Wtime() - t0, slowest = 0;
  double cpu = cpu_seconds() - c0, cpu_sum = 0;
  MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&cpu, &cpu_sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  /* SCR_Finalize flushes the checkpoint when no flush was due at Complete
   * (the script sets SCR_FLUSH high): that is the flush time. */
  double flush = 0, flush_slowest = 0;
  if (strcmp(mode, "plain") != 0 && strncmp(mode, "floor-", 6) != 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    flush = MPI_Wtime();
    if (SCR_Finalize() != SCR_SUCCESS) ok = 0;
    flush = MPI_Wtime() - flush;
  }
  MPI_Allreduce(&flush, &flush_slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  /* Peak resident memory of the largest process, SCR_Finalize included. */
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long rss_kib = ru.ru_maxrss, peak_kib = 0;
  MPI_Allreduce(&rss_kib, &peak_kib, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("{\"mode\":\"%s\",\"files\":%ld,\"bytes\":%zu,\"seconds\":%.4f,\"finalize_seconds\":%.4f,"
           "\"cpu_seconds\":%.4f,\"peak_rss_mib\":%.1f,\"ok\":%d}\n",
           mode, files, bytes, slowest, flush_slowest, cpu_sum, peak_kib / 1024.0, all);
  free(buf);
  free(want);
  MPI_Finalize();
  return all ? 0 : 1;
}
