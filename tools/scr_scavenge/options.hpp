// scr_scavenge's settings: its command line over the SCR++ configuration
// (environment, config files, defaults: the layers the library reads), so
// SCR_PREFIX, SCR_CACHE_BASE, SCR_CNTL_BASE and SCR_SIM_NODES mean to it what
// they meant to the job, and the job id is found as the job found it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::tools::scavenge {

struct Options {
  std::string prefix;             // absolute
  std::string cache_base;         // where a dataset is cached when its filemap names no STORE
  bool cache_base_given = false;  // --cache-base: every dataset is read from there
  std::string cntl_base;
  std::vector<std::string> nodes;  // simulated nodes; empty: this node's own directories
  std::string user;
  std::string job_id;
  int prefix_size = 0;  // SCR_PREFIX_SIZE: the window a job's flush applies
  bool all = false;  // every cached dataset not flushed, not only the newest checkpoint
  bool json = false;

  // Across the hosts of a cluster (remote_caches.hpp): the job's hosts (empty:
  // the caches are read here), how a command reaches one (srun, mpirun,
  // pdsh, ssh, or an rsh-like command), how long a host's scan may take, and
  // the hosts never contacted (SCR_EXCLUDE_NODES).
  std::vector<std::string> hosts;
  std::string remote;
  int timeout_seconds = 60;
  std::set<std::string> excluded;
};

struct Parsed {
  Options options;
  bool help = false;
};
// Errc::invalid_argument for usage errors; not_found when the prefix or the
// job id cannot be found.
Result<Parsed> parse_options(io::Env& env, int argc, const char* const* argv);
std::string help_text();

}  // namespace scr::tools::scavenge
