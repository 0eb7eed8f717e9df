#include "timing.hpp"

#include <sys/resource.h>

#include <fstream>
#include <string>

#include "mpi/wait.hpp"

namespace scr::bench {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.close();
  return !clear.fail();
}

void barrier(const mpi::Comm& world) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Ibarrier(mpi::raw(world), &req);
  mpi::wait_one(req);
}

}  // namespace scr::bench
