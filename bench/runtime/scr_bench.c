/*
 * scr_bench: times what an application sees of SCR++ through the C API.
 *
 *   scr_bench write   BYTES [COMPUTE_STEPS]   one checkpoint of BYTES per rank
 *   scr_bench restart                         SCR_Init (rebuild/fetch) + read back
 *
 * write prints, as one JSON line from rank 0: seconds blocked in
 * SCR_Complete_output, seconds to write the data into cache, seconds until the
 * flush finished (sync: inside Complete; async: measured by SCR_Finalize
 * waiting), and the number of compute steps run while an async flush was in
 * flight (a counter, not a timing).
 * restart prints the seconds spent in SCR_Init and whether the data matched.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scr.h"

static double now(void) { return MPI_Wtime(); }

static void fill(unsigned char* buf, size_t n, int rank, uint64_t offset) {
  for (size_t i = 0; i < n; ++i) buf[i] = (unsigned char)((offset + i) * 131 + rank * 7 + 1);
}

static double max_all(double v) {
  double out;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

static int bench_write(int rank, int ranks, uint64_t bytes, int compute) {
  const size_t piece = 1 << 20;
  unsigned char* buf = malloc(piece);
  char name[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
  double t0 = now();
  SCR_Init();
  double t_init = now() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = now();
  SCR_Start_output("bench.1", SCR_FLAG_CHECKPOINT);
  snprintf(name, sizeof name, "bench.1/rank_%d.dat", rank);
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
  double t_write = now() - t0;
  double t1 = now();
  int rc = SCR_Complete_output(1);
  double t_complete = now() - t1;
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
  double t2 = now();
  SCR_Finalize();
  double t_finalize = now() - t2;
  double w = max_all(t_write), c = max_all(t_complete), fz = max_all(t_finalize), in = max_all(t_init);
  if (rank == 0)
    printf("{\"phase\":\"write\",\"ranks\":%d,\"bytes_per_rank\":%llu,\"init_s\":%.4f,\"write_s\":%.4f,"
           "\"complete_blocked_s\":%.4f,\"finalize_s\":%.4f,\"steps_during_flush\":%d,\"rc\":%d}\n",
           ranks, (unsigned long long)bytes, in, w, c, fz, steps, rc);
  free(buf);
  return rc;
}

static int bench_restart(int rank, int ranks) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  SCR_Init();
  double t_init = max_all(now() - t0);
  int have = 0, ok = 1;
  char name[SCR_MAX_FILENAME], file[SCR_MAX_FILENAME], path[SCR_MAX_FILENAME];
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
  if (rank == 0)
    printf("{\"phase\":\"restart\",\"ranks\":%d,\"init_s\":%.4f,\"restarted\":\"%s\",\"data_ok\":%d}\n",
           ranks, t_init, have ? name : "", all_ok);
  SCR_Finalize();
  return all_ok && have ? 0 : 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int rc = 1;
  if (argc >= 3 && !strcmp(argv[1], "write"))
    rc = bench_write(rank, ranks, strtoull(argv[2], NULL, 10), argc > 3 ? atoi(argv[3]) : 0);
  else if (argc >= 2 && !strcmp(argv[1], "restart"))
    rc = bench_restart(rank, ranks);
  else if (rank == 0)
    fprintf(stderr, "usage: scr_bench write BYTES [COMPUTE_STEPS] | scr_bench restart\n");
  MPI_Finalize();
  return rc;
}
