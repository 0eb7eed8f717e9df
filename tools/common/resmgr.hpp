// Which resource manager runs the job, asked at run time from the
// environment the batch system gives the job script (never fixed at build
// time): SLURM (SLURM_JOB_ID), Flux (FLUX_JOB_ID), LSF (LSB_JOBID) or PBS
// (PBS_JOBID), checked in that order. For each: the job id, the hosts of the
// allocation, and which of them the manager reports down.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace scr::tools {

struct JobEnv {
  std::string manager;             // "SLURM", "FLUX", "LSF", "PBS", or "" (none found)
  std::string job_id;              // "" without a manager
  std::vector<std::string> nodes;  // the allocation's hosts, in the manager's order
};

// From the environment (and, for PBS, $PBS_NODEFILE; for Flux, `flux hostlist local`).
Result<JobEnv> detect_job_env();

// Nodes the manager reports unusable, each with the state it reports
// ("DOWN", "DRAIN", ...): SLURM `scontrol show node`, Flux `flux resource
// list -s down`, LSF `bhosts`, PBS `pbsnodes -l`. When the manager's command
// cannot run, `note` says so and no node is reported.
std::map<std::string, std::string> manager_down_nodes(const JobEnv& job,
                                                      const std::vector<std::string>& nodes,
                                                      std::string* note);

// When the allocation ends, in epoch seconds, as SLURM's `squeue -o %e`
// tells it; 0 when unknown or unlimited, or under another manager.
int64_t manager_end_time(const JobEnv& job);

// The command line's words run without a shell; its stdout, or an error.
Result<std::string> capture_output(const std::vector<std::string>& argv);

}  // namespace scr::tools
