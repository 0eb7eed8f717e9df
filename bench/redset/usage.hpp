// This process's CPU time and peak memory, from the kernel alone: shared by
// redset_bench (timing.cpp) and the redset baseline driver
// (baseline/redset_baseline.cpp), which links nothing of SCR++.
#pragma once

#include <sys/resource.h>

#include <fstream>
#include <string>

namespace scr::bench::usage {

// User + system CPU seconds so far.
inline double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

// Peak resident set in MiB (Linux: VmHWM, which /proc/self/clear_refs resets).
inline double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

}  // namespace scr::bench::usage
