// The end of a job script: save what is only in cache. scr_run calls
//   scr_scavenge --prefix DIR      (SCR's launcher commands: scr_postrun)
// with the environment of the last run (SCR_SIM_NODES, SCR_CACHE_BASE,
// SCR_CNTL_BASE, ...), taking the program from scr_run's own directory first
// (an installation's bin/) and then from PATH. Without one it says so and
// carries on: scavenging is a separate command.
#pragma once

#include <string>

namespace scr::tools::run {

// An installed tool: the program `name` in this program's own directory (an
// installation's bin/), else on PATH; "" when there is none.
std::string find_sibling(const std::string& name);

// The scr_scavenge to run, or "" when there is none.
inline std::string find_scavenge() { return find_sibling("scr_scavenge"); }

// Runs it and reports in words; returns its outcome in one line.
std::string run_scavenge(const std::string& program, const std::string& prefix);

}  // namespace scr::tools::run
