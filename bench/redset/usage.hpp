// This process's CPU time and peak memory, from the kernel alone: shared by
// redset_bench (timing.cpp) and the redset baseline driver
// (baseline/redset_baseline.cpp), which links nothing of SCR++.
#pragma once

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
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

// Profiling one phase alone: under `perf record --delay=-1 --control
// fifo:CTL,ACK`, with BENCH_PERF_CTL=CTL,ACK,PHASE in the environment, rank 0
// turns the events on when PHASE ("encode" or "rebuild") starts and off when
// it ends.
inline void perf_phase(int rank, const char* phase, bool on) {
  const char* spec = std::getenv("BENCH_PERF_CTL");
  if (rank != 0 || !spec) return;
  std::string s(spec);
  size_t a = s.find(','), b = s.find(',', a + 1);
  if (a == std::string::npos || b == std::string::npos || s.substr(b + 1) != phase) return;
  { std::ofstream ctl(s.substr(0, a)); ctl << (on ? "enable" : "disable") << std::endl; }
  std::ifstream ack(s.substr(a + 1, b - a - 1));
  std::string line;
  std::getline(ack, line);
}

}  // namespace scr::bench::usage
