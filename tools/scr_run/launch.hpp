// Running a program and waiting for it, as a batch script would: it inherits
// our environment and terminal; SIGINT, SIGTERM and SIGHUP that reach
// scr_run meanwhile (Ctrl-C, the batch system ending the allocation) are
// passed on to it, and remembered so no new run starts afterwards.
#pragma once

#include <string>
#include <vector>

namespace scr::tools::run {

struct Outcome {
  bool started = false;  // false: the program could not be executed (error says why)
  int exit_code = 0;     // shell convention: 128 + signal when killed
  int signal = 0;
  std::string error;
  bool ok() const { return started && exit_code == 0; }
  std::string describe() const;  // "exit 137", "killed by signal 9", "cannot run x: ..."
};

// argv[0] is looked up on PATH.
Outcome run_program(const std::vector<std::string>& argv);

// SCR_ENABLE=0 in the environment: the job runs without SCR, so the
// launchers start it directly and nothing is left to scavenge.
bool scr_disabled_by_environment();

// Install the forwarding handlers (once, before the first run).
void forward_signals();
// The signal that asked us to stop, or 0.
int stop_signal();

}  // namespace scr::tools::run
