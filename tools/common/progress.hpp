// Progress of long work, for the operator watching it:
//   verifying step.40: 1.2 GiB of 4.0 GiB (30%), 310.0 MiB/s, 9 s left
// Nothing is printed while the work is younger than `quiet_seconds` (short
// work stays silent); after that one line per second at most, rewritten in
// place on a terminal, one line each otherwise. finish() ends the report.
// Without `out` (nullptr) it only counts: work done for someone else.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace scr::tools {

class Progress {
 public:
  Progress(std::string label, uint64_t total_bytes, std::FILE* out = stderr,
           double quiet_seconds = 1.0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add(uint64_t bytes);
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final_line);

  std::string label_;
  uint64_t total_ = 0;
  uint64_t done_ = 0;
  std::FILE* out_;
  double quiet_;
  bool tty_;
  bool printed_ = false;
  bool finished_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

}  // namespace scr::tools
