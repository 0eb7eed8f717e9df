// Timing collective steps of the benchmark: wall time from a barrier to the
// last rank done, and the CPU time every rank spent in between.
#pragma once

#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"

namespace scr::bench {

struct Timing {
  double wall_s = 0;
  double cpu_s = 0;  // user + system, summed over ranks: busy-waiting shows here
};

// This process's user + system CPU seconds so far.
double cpu_seconds();

// This process's peak resident set since it started or since the last
// reset_peak_rss(), in MiB (Linux: VmHWM).
double peak_rss_mib();
// Starts the peak over from what is resident now, so that a part measured
// after the engine does not count in the engine's peak. False where the
// system does not allow it (no /proc/self/clear_refs).
bool reset_peak_rss();

// A barrier whose waiters sleep, as redset_baseline's: ranks done early must
// not take the CPU from the ranks still working (8 ranks share 2 cores here).
// It times the engines, and is the same for both.
void barrier(const mpi::Comm& world);

// Wall time of a collective step, from a barrier to the last rank done.
template <class F>
Timing timed(const mpi::Comm& world, F&& step) {
  barrier(world);
  double t0 = MPI_Wtime(), c0 = cpu_seconds();
  step();
  double cpu = cpu_seconds() - c0;
  barrier(world);
  Timing t;
  t.wall_s = MPI_Wtime() - t0;
  MPI_Allreduce(&cpu, &t.cpu_s, 1, MPI_DOUBLE, MPI_SUM, mpi::raw(world));
  return t;
}

}  // namespace scr::bench
