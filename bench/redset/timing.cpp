#include "timing.hpp"

#include <unistd.h>

#include <fstream>

#include "usage.hpp"

namespace scr::bench {

double cpu_seconds() { return usage::cpu_seconds(); }

double peak_rss_mib() { return usage::peak_rss_mib(); }

bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.close();
  return !clear.fail();
}

void barrier(const mpi::Comm& world) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Ibarrier(mpi::raw(world), &req);
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    ::usleep(50);
  }
}

}  // namespace scr::bench
