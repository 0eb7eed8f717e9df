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

// `launcher` is "srun", "mpirun" or "flux"; returns the exit code. `tool`
// names the command in messages (default "scr_<launcher>"; "scr_run" for
// SCR's `scr_run srun ARGS...`).
int launcher_main(const std::string& launcher, int argc, char** argv, std::string tool = "");

// SCR's scr_run takes its launcher as the first word (`scr_run srun -n 8
// ./app`). The launcher named by `word` (a path's last component) when it is
// one SCR's scr_run knows: "srun", "mpirun" or "flux", which SCR++ runs, or
// "jsrun", "lrun" or "aprun", which it does not; "" for any other word.
std::string scr_run_launcher(const std::string& word);

}  // namespace scr::tools::run
