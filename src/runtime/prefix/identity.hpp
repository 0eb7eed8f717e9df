// Who and where this process is: user, job (allocation) id, node name and the
// directories derived from them. The simulated-node mechanism (SCR_SIM_NODES,
// docs/design.md#simulated-nodes) lives here and only here.
#pragma once

#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "runtime/config/settings.hpp"

namespace scr::rt {

// Where the job's communicator sits among all the processes of the launch
// (mpirun's world communicator): this process's rank there and their number.
// Nodes hold processes whatever communicator they join, so SCR_SIM_NODES
// places launch ranks; a job on fewer processes than the launch
// (SCRPP_Init_comm) gets job directories of its own (job_dir).
struct Launch {
  int rank = 0;
  int size = 1;
};

struct Identity {
  std::string user;
  std::string job_id;
  std::string node;         // node name (simulated or real host name)
  bool simulated = false;   // SCR_SIM_NODES in effect
  // Set when the job runs on part of the launch: tells its job directories
  // from those of other jobs of the same launch (job_dir, part_tag).
  std::string part;
};

// The tag of a job on part of the launch: 8 hex digits of its prefix's
// CRC32. Stable across relaunches (the cache is found again); two jobs of
// one launch with different prefixes get different directories, and two on
// one prefix are refused by the prefix lock anyway.
std::string part_tag(const std::string& prefix);

// The node this launch rank runs on: block rank / (size / n) of SCR_SIM_NODES,
// or the host name. A rank count that does not divide evenly is an error.
Result<std::string> node_name(const std::string& sim_nodes, int world_rank, int world_size);

// Job id from SLURM/LSF/Flux/PBS variables, else SCR_JOB_ID, else the id
// recorded in <prefix>/.scr/jobid, else a new one (recorded by rank 0). Only
// rank 0 calls this; the runtime broadcasts the result.
Result<std::string> resolve_job_id(io::Env& env, const Settings& s);

std::string user_name(const Settings& s);

// Node-local base directory of a store: <base>/<node>/ when simulating nodes.
std::string node_base(const std::string& base, const Identity& id);
// <base>[/<node>]/<user>/scr.<jobid>, or scr.<jobid>.<part> for a job on
// part of the launch.
std::string job_dir(const std::string& base, const Identity& id);

}  // namespace scr::rt
