// A node tests itself, as SCR's scr_list_down_nodes has each node do: a
// small shell program run on the node through the site's remote-command
// method (srun, pdsh, ssh, or an rsh-like agent such as Open MPI's
// plm_rsh_agent) answers that it is up, and, for each directory the job
// needs there (cache and control bases), whether it exists, is writable and
// how large it is. A node that does not answer within a bounded time, cannot
// run the program, or lacks a usable directory is down, with the reason.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/common/remote.hpp"

namespace scr::tools::run {

struct ProbeConfig {
  // "srun", "pdsh", "ssh", or a command run as `COMMAND NODE SHELL-LINE`
  // (words split at blanks); empty: nodes are not contacted.
  std::string remote;
  int timeout_seconds = 10;
  std::vector<std::string> dirs;  // directories each node must have, writable
  uint64_t min_bytes = 0;         // each directory's file system capacity at least this
  bool free = false;              // ... or, with free, its free space
};

// What running the probe on one node gave.
using ProbeRun = NodeRun;

// The words to execute to probe `node`.
std::vector<std::string> probe_argv(const ProbeConfig& config, const std::string& node);

// The verdict on a node from its probe's run: nullopt when it is up, else
// why it is down. A run that could not start judges nothing (nullopt; the
// caller reports that the method is broken rather than every node down).
std::optional<std::string> probe_verdict(const ProbeConfig& config, const std::string& node,
                                         const ProbeRun& run);

// Probe every node at once, each bounded by the timeout: node -> reason for
// those down. `notes` receives what could not be checked.
std::map<std::string, std::string> probe_nodes(const ProbeConfig& config,
                                               const std::vector<std::string>& nodes,
                                               std::vector<std::string>* notes);

}  // namespace scr::tools::run
