// SCR's launcher commands, scr_srun, scr_mpirun and scr_flux, as thin
// layers over scr_run's relaunch loop: every word of the command line goes
// to the launcher (`scr_srun -n 8 ./app` runs `srun -n 8 ./app`), and the
// nodes, spares and down-node check come from the resource manager found at
// run time (tools/common/resmgr.hpp) or from SCR_SIM_NODES.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scr::tools::run {

// scr_run's command line for `launcher WORDS...`: the allocation --
// `sim_nodes` when not empty, else the manager's `hosts` (checked with
// `down_check NODE`, pinned with the launcher's own option when split) --
// as the first `needed` nodes of a run and the rest spares (all are needed
// when `needed` is 0 or not smaller).
std::vector<std::string> runner_args(const std::string& launcher,
                                     const std::vector<std::string>& sim_nodes,
                                     const std::vector<std::string>& hosts, int64_t needed,
                                     const std::string& down_check,
                                     const std::vector<std::string>& words);

// `launcher` is "srun", "mpirun" or "flux"; returns the exit code.
int launcher_main(const std::string& launcher, int argc, char** argv);

}  // namespace scr::tools::run
