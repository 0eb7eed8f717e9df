#include "timing.hpp"

#include <sys/resource.h>

#include "mpi/wait.hpp"

namespace scr::bench {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

void barrier(const mpi::Comm& world) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Ibarrier(world.raw(), &req);
  mpi::wait_one(req);
}

}  // namespace scr::bench
