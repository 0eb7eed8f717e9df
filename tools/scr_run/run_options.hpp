// scr_run's settings: its command line over the SCR++ configuration (the
// same layers the library reads: environment, user and system config files,
// defaults), so SCR_RUNS, SCR_MIN_NODES, SCR_PREFIX, SCR_CACHE_BASE and
// SCR_CNTL_BASE mean to the runner what they mean to the job.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "runtime/config/settings.hpp"

namespace scr::tools::run {

struct RunOptions {
  int runs = 1;                    // total runs, -1 unlimited
  int min_nodes = 0;               // 0: as many as the last run had (.scr/nodes.scr), else the first
  std::vector<std::string> nodes;  // empty: the runner does not manage nodes
  std::vector<std::string> spares;
  bool real_nodes = false;  // nodes are hosts: no SCR_SIM_NODES, no storage check
  std::string down_check;   // shell command, run as `CMD NODE`
  bool scavenge = true;
  std::string scavenger = "scr_scavenge";  // run as `scavenger --prefix DIR` at the end
  std::string launcher = "mpirun";
  std::vector<std::string> launcher_args;  // after "--"; "{nodes}" is replaced
  rt::Settings settings;                   // prefix, bases, halt seconds, job id, ...
};

// The command line read; `help` when --help was asked for (nothing else is set).
struct ParsedOptions {
  RunOptions options;
  bool help = false;
};
Result<ParsedOptions> parse_run_options(int argc, const char* const* argv);

// The job's settings as the library reads them (environment, config files,
// defaults), with `prefix` (when not empty) as SCR_PREFIX.
Result<rt::Settings> job_settings(const std::string& prefix);

// One integer parameter of that configuration ("SCR_MIN_NODES").
Result<int64_t> config_int(const char* name);
std::string run_help();

}  // namespace scr::tools::run
