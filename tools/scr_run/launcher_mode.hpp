// SCR's launcher commands, scr_srun, scr_mpirun and scr_flux, as thin
// layers over scr_run's relaunch loop: every word of the command line goes
// to the launcher (`scr_srun -n 8 ./app` runs `srun -n 8 ./app`), and the
// nodes, spares and down-node check come from the resource manager found at
// run time (tools/common/resmgr.hpp) or from SCR_SIM_NODES.
#pragma once

#include <string>

namespace scr::tools::run {

// `launcher` is "srun", "mpirun" or "flux"; returns the exit code.
int launcher_main(const std::string& launcher, int argc, char** argv);

}  // namespace scr::tools::run
