// The nodes of the allocation a job script runs in, and which are down, as
// SCR's job commands (scr_list_down_nodes, scr_should_exit, scr_srun, ...)
// see them: with SCR_SIM_NODES the simulated nodes, a node being down when
// its node-local storage is gone while another node's remains; otherwise the
// resource manager's hosts and its verdict on them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "runtime/settings.hpp"
#include "tools/common/resmgr.hpp"

namespace scr::tools::run {

struct Allocation {
  JobEnv job;                      // the resource manager found at run time
  bool simulated = false;          // nodes are SCR_SIM_NODES
  std::vector<std::string> nodes;  // empty when none is known
};

Result<Allocation> find_allocation(const rt::Settings& settings);

// node -> why it is down, for the given nodes of the allocation; notes say
// what could not be checked.
std::map<std::string, std::string> find_down(const Allocation& alloc,
                                             const std::vector<std::string>& nodes,
                                             const rt::Settings& settings,
                                             std::vector<std::string>* notes);

// The down nodes a job command reports: those of `given` (SCR's --down
// NODESET, counted down unchecked) and those find_down finds among all of
// `nodes` (the given ones too: a simulated node's lost storage tells only
// beside nodes that kept theirs). Errc::invalid_argument for a malformed
// NODESET.
Result<std::map<std::string, std::string>> down_nodes(const Allocation& alloc,
                                                      const std::vector<std::string>& nodes,
                                                      const std::optional<std::string>& given,
                                                      const rt::Settings& settings,
                                                      std::vector<std::string>* notes);

}  // namespace scr::tools::run
