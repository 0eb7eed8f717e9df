// The nodes of the allocation a job script runs in, and which are down, as
// SCR's job commands (scr_list_down_nodes, scr_should_exit, scr_srun, ...)
// see them: with SCR_SIM_NODES the simulated nodes, a node being down when
// its node-local storage is gone while another node's remains; otherwise the
// resource manager's hosts and its verdict on them.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "runtime/config/settings.hpp"
#include "tools/common/resmgr.hpp"
#include "tools/scr_run/node_probe.hpp"

namespace scr::tools::run {

struct Allocation {
  JobEnv job;                      // the resource manager found at run time
  bool simulated = false;          // nodes are SCR_SIM_NODES
  std::vector<std::string> nodes;  // empty when none is known
};

Result<Allocation> find_allocation(const rt::Settings& settings);

// The tests beyond the resource manager's verdict, from the configuration:
// SCR_EXCLUDE_NODES, and each node testing itself (SCR_NODE_REMOTE,
// SCR_NODE_TIMEOUT, SCR_NODE_MIN_BYTES) that its cache and control bases
// are there, writable and large enough. `free` measures free space instead
// of capacity (scr_list_down_nodes -f).
struct NodeTests {
  std::set<std::string> excluded;
  ProbeConfig probe;
};
Result<NodeTests> node_tests(const rt::Settings& settings, bool free = false);

// node -> why it is down, for the given nodes of the allocation, in SCR's
// order: excluded, reported by the resource manager, failing its own test
// (real nodes only: simulated ones are not hosts); notes say what could not
// be checked.
std::map<std::string, std::string> find_down(const Allocation& alloc,
                                             const std::vector<std::string>& nodes,
                                             const rt::Settings& settings, const NodeTests& tests,
                                             std::vector<std::string>* notes);

// The down nodes a job command reports: those of `given` (SCR's --down
// NODESET, counted down unchecked) and those find_down finds among all of
// `nodes` (the given ones too: a simulated node's lost storage tells only
// beside nodes that kept theirs). Errc::invalid_argument for a malformed
// NODESET or SCR_EXCLUDE_NODES.
Result<std::map<std::string, std::string>> down_nodes(const Allocation& alloc,
                                                      const std::vector<std::string>& nodes,
                                                      const std::optional<std::string>& given,
                                                      const rt::Settings& settings,
                                                      std::vector<std::string>* notes,
                                                      bool free = false);

// How many nodes the job's last run had, as SCR_Init recorded it in
// <prefix>/.scr/nodes.scr (SCR 3.1's file); 0 when unknown (no file, or one
// that cannot be read). SCR's job commands need that many when SCR_MIN_NODES
// is not set.
int64_t last_run_nodes(const rt::Settings& settings);

// The nodes a run needs: SCR_MIN_NODES (`min_nodes`) when positive, else the
// last run's count, else `all` (every node of the allocation).
size_t nodes_needed(const rt::Settings& settings, int64_t min_nodes, size_t all);

}  // namespace scr::tools::run
