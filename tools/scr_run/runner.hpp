// The relaunch loop of scr_run and of SCR's launcher commands (scr_srun,
// scr_mpirun, scr_flux): run the job, and while runs fail and the job did
// not ask to stop, find the nodes that are down, put spares in their place
// and run again; at the end hand over to scr_scavenge.
#pragma once

#include "tools/scr_run/run_options.hpp"

namespace scr::tools::run {

// scr_run's exit codes (see run_help()).
constexpr int kFinished = 0, kUsage = 1, kNothingRun = 2, kHaltUnreadable = 3, kNotFinished = 4;

// Runs the loop with these options; prints every decision as
// "<tool>: ..." and returns one of the codes above.
int run_loop(RunOptions options, const std::string& tool = "scr_run");

}  // namespace scr::tools::run
