#include "tools/scr_run/allocation.hpp"

#include <algorithm>

#include "io/env.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/config/config.hpp"
#include "tools/common/hostlist.hpp"
#include "tools/scr_run/node_health.hpp"
#include "tools/scr_run/node_plan.hpp"

namespace scr::tools::run {

Result<Allocation> find_allocation(const rt::Settings& settings) {
  Allocation a;
  SCR_ASSIGN_OR_RETURN(a.job, detect_job_env());
  if (!settings.sim_nodes.empty()) {
    a.simulated = true;
    a.nodes = split_nodes(settings.sim_nodes);
  } else {
    a.nodes = a.job.nodes;
  }
  return a;
}

Result<NodeTests> node_tests(const rt::Settings& settings, bool free) {
  auto config = rt::Config::load(rt::ConfigSources::process());
  if (!config) return config.status().with_context("configuration");
  NodeTests t;
  if (auto list = config->get("SCR_EXCLUDE_NODES"); list && !list->empty()) {
    auto hosts = expand_hosts(*list);
    if (!hosts) return Error(Errc::invalid_argument, "SCR_EXCLUDE_NODES: " + hosts.status().message());
    t.excluded.insert(hosts->begin(), hosts->end());
  }
  t.probe.remote = config->get("SCR_NODE_REMOTE").value_or("");
  SCR_ASSIGN_OR_RETURN(int64_t timeout, config->get_int("SCR_NODE_TIMEOUT"));
  t.probe.timeout_seconds = static_cast<int>(timeout);
  SCR_ASSIGN_OR_RETURN(t.probe.min_bytes, config->get_bytes("SCR_NODE_MIN_BYTES"));
  t.probe.free = free;
  t.probe.dirs = {settings.cache_base};
  if (settings.cntl_base != settings.cache_base) t.probe.dirs.push_back(settings.cntl_base);
  return t;
}

std::map<std::string, std::string> find_down(const Allocation& alloc,
                                             const std::vector<std::string>& nodes,
                                             const rt::Settings& settings, const NodeTests& tests,
                                             std::vector<std::string>* notes) {
  std::map<std::string, std::string> down;
  for (const auto& n : nodes)
    if (tests.excluded.count(n)) down[n] = "excluded by SCR_EXCLUDE_NODES";
  if (alloc.simulated) {
    Health h = find_down_nodes(io::Env::posix(), nodes, true, settings.cache_base,
                               settings.cntl_base, "");
    for (const auto& n : h.down)
      down.emplace(n, "node-local storage is gone (" + io::path::join(settings.cache_base, n) + " or " +
                io::path::join(settings.cntl_base, n) + ")");
    if (notes) notes->insert(notes->end(), h.notes.begin(), h.notes.end());
    return down;
  }
  std::string note;
  for (auto& [n, state] : manager_down_nodes(alloc.job, nodes, &note))
    down.emplace(n, alloc.job.manager + " reports state " + state);
  if (!note.empty() && notes) notes->push_back(note);
  // Only the nodes still thought up are contacted (as SCR does).
  std::vector<std::string> up;
  for (const auto& n : nodes)
    if (!down.count(n)) up.push_back(n);
  for (auto& [n, why] : probe_nodes(tests.probe, up, notes)) down.emplace(n, why);
  return down;
}

Result<std::map<std::string, std::string>> down_nodes(const Allocation& alloc,
                                                      const std::vector<std::string>& nodes,
                                                      const std::optional<std::string>& given,
                                                      const rt::Settings& settings,
                                                      std::vector<std::string>* notes, bool free) {
  SCR_ASSIGN_OR_RETURN(NodeTests tests, node_tests(settings, free));
  std::map<std::string, std::string> down;
  if (given) {
    auto list = expand_hosts(*given);
    if (!list) return Error(Errc::invalid_argument, "--down: " + list.status().message());
    for (const auto& n : *list) down[n] = "given with --down";
  }
  // Every node is checked, those given too: a simulated node's lost storage
  // tells only beside nodes that still have theirs.
  for (auto& [n, why] : find_down(alloc, nodes, settings, tests, notes)) down.emplace(n, why);
  return down;
}

int64_t last_run_nodes(const rt::Settings& settings) {
  auto tree = io::read_any_tree(io::Env::posix(), rt::prefix_nodes_path(settings.prefix));
  if (!tree) return 0;
  return std::max<int64_t>(0, tree->int_or("NODES", 0));
}

size_t nodes_needed(const rt::Settings& settings, int64_t min_nodes, size_t all) {
  if (min_nodes > 0) return static_cast<size_t>(min_nodes);
  if (int64_t last = last_run_nodes(settings); last > 0) return static_cast<size_t>(last);
  return all;
}

}  // namespace scr::tools::run
