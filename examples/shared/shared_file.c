/*
 * shared_file: an N-to-1 checkpoint. Every rank writes its block of one
 * shared file at its own offset (rank * block size), as codes using MPI-IO or
 * pwrite do. With SCR 3.1's default (SCR_CACHE_BYPASS=1) the file is written
 * straight to the prefix directory, so ranks on any node can share it.
 *
 *   shared_file [-n steps] [-c every] [-b bytes-per-rank] [--per-rank-until step]
 *               [--crash-at step]
 *
 * The state of rank r after step s is a pseudo-random block determined by
 * (r, s), so a restart can verify every byte it reads back.
 * --per-rank-until s: checkpoints up to step s use one file per rank
 *   (ckpt.<s>/rank_<r>.dat) instead of the shared file ckpt.<s>/state.dat.
 * --crash-at s: every rank dies (SIGKILL) after step s.
 * Output on rank 0: "resumed from checkpoint 'NAME' (N bytes verified)",
 * "step S: checkpoint NAME saved" or "... failed", and a final
 * "RESULT steps=N resumed=S" line. A restart whose bytes do not match is
 * reported as invalid to SCR_Complete_restart, which offers an older one.
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scr.h"

typedef struct {
  int steps, every, per_rank_until, crash_at;
  size_t bytes;
} Options;

static int rank, ranks;

static void say(const char* fmt, ...) {
  if (rank != 0) return;
  va_list args;
  va_start(args, fmt);
  printf("[shared] ");
  vprintf(fmt, args);
  printf("\n");
  fflush(stdout);
  va_end(args);
}

static void die(const char* what) {
  fprintf(stderr, "[shared] rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The state of `r` after step `s`: xorshift64 seeded by (r, s). */
static void fill_block(unsigned char* buf, size_t n, int r, int s) {
  uint64_t x = 0x9E3779B97F4A7C15ull ^ ((uint64_t)(r + 1) << 32) ^ (uint64_t)(s + 1);
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    buf[i] = (unsigned char)x;
  }
}

static void file_name(char* out, size_t n, int s, const Options* o) {
  if (s <= o->per_rank_until) snprintf(out, n, "ckpt.%d/rank_%d.dat", s, rank);
  else snprintf(out, n, "ckpt.%d/state.dat", s);
}

static off_t block_offset(int s, const Options* o) {
  return s <= o->per_rank_until ? 0 : (off_t)rank * (off_t)o->bytes;
}

static int write_all(int fd, const unsigned char* p, size_t n, off_t off) {
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return 0;
    p += w, n -= (size_t)w, off += w;
  }
  return 1;
}

static int read_all(int fd, unsigned char* p, size_t n, off_t off) {
  while (n > 0) {
    ssize_t r = pread(fd, p, n, off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return 0;
    p += r, n -= (size_t)r, off += r;
  }
  return 1;
}

static void checkpoint(const Options* o, int s, unsigned char* buf) {
  char name[64], file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  snprintf(name, sizeof name, "ckpt.%d", s);
  if (SCR_Start_output(name, SCR_FLAG_CHECKPOINT) != SCR_SUCCESS) die("SCR_Start_output failed");
  file_name(file, sizeof file, s, o);
  int valid = SCR_Route_file(file, path) == SCR_SUCCESS;
  if (valid) {
    fill_block(buf, o->bytes, rank, s);
    /* No O_TRUNC: other ranks write their blocks of the same file. */
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    valid = fd >= 0 && write_all(fd, buf, o->bytes, block_offset(s, o));
    if (fd >= 0 && close(fd) != 0) valid = 0;
  }
  int rc = SCR_Complete_output(valid);
  say("step %d: checkpoint %s %s", s, name, rc == SCR_SUCCESS ? "saved" : "failed");
}

/* Read back and verify this rank's block; returns the step, or -1. */
static int restart(const Options* o, unsigned char* buf, unsigned char* want) {
  for (;;) {
    int have = 0;
    char name[SCR_MAX_FILENAME];
    if (SCR_Have_restart(&have, name) != SCR_SUCCESS) die("SCR_Have_restart failed");
    if (!have) return -1;
    if (SCR_Start_restart(name) != SCR_SUCCESS) die("SCR_Start_restart failed");
    int s = -1, valid = sscanf(name, "ckpt.%d", &s) == 1 && s > 0;
    char file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
    if (valid) {
      file_name(file, sizeof file, s, o);
      valid = SCR_Route_file(file, path) == SCR_SUCCESS;
    }
    if (valid) {
      int fd = open(path, O_RDONLY);
      valid = fd >= 0 && read_all(fd, buf, o->bytes, block_offset(s, o));
      if (fd >= 0) close(fd);
      fill_block(want, o->bytes, rank, s);
      if (valid && memcmp(buf, want, o->bytes) != 0) {
        fprintf(stderr, "[shared] rank %d: MISMATCH in %s\n", rank, path);
        valid = 0;
      }
    }
    if (SCR_Complete_restart(valid) == SCR_SUCCESS) {
      say("resumed from checkpoint '%s' (%ld bytes verified)", name, (long)(o->bytes * (size_t)ranks));
      return s;
    }
    say("restart from %s was rejected; trying an older checkpoint", name);
  }
}

int main(int argc, char** argv) {
  Options o = {20, 5, 0, -1, 1 << 16};
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) o.steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-c") && i + 1 < argc) o.every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-b") && i + 1 < argc) o.bytes = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--per-rank-until") && i + 1 < argc) o.per_rank_until = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--crash-at") && i + 1 < argc) o.crash_at = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: shared_file [-n steps] [-c every] [-b bytes] [--per-rank-until s] [--crash-at s]\n");
      return 2;
    }
  }
  if (o.every <= 0 || o.bytes == 0) {
    fprintf(stderr, "shared_file: -c and -b must be positive\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (SCR_Init() != SCR_SUCCESS) die("SCR_Init failed");
  unsigned char* buf = malloc(o.bytes);
  unsigned char* want = malloc(o.bytes);
  if (!buf || !want) die("out of memory");

  int start = restart(&o, buf, want);
  if (start < 0) {
    say("no checkpoint found: starting from step 0");
    start = 0;
  }
  for (int s = start + 1; s <= o.steps; ++s) {
    if (s % o.every == 0) checkpoint(&o, s, buf);
    if (s == o.crash_at) {
      /* Every rank dies here; the barrier lets rank 0 finish reporting the
       * last checkpoint before the first SIGKILL makes mpiexec kill it. */
      MPI_Barrier(MPI_COMM_WORLD);
      fprintf(stderr, "[shared] rank %d: simulating a failure at step %d (SIGKILL)\n", rank, s);
      fflush(stderr);
      raise(SIGKILL);
    }
  }
  if (SCR_Finalize() != SCR_SUCCESS) die("SCR_Finalize failed");
  if (rank == 0) printf("RESULT steps=%d resumed=%d\n", o.steps, start);
  free(buf);
  free(want);
  MPI_Finalize();
  return 0;
}
