#include "tools/scr_run/allocation.hpp"

#include "io/env.hpp"
#include "io/path.hpp"
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

std::map<std::string, std::string> find_down(const Allocation& alloc,
                                             const std::vector<std::string>& nodes,
                                             const rt::Settings& settings,
                                             std::vector<std::string>* notes) {
  std::map<std::string, std::string> down;
  if (alloc.simulated) {
    Health h = find_down_nodes(io::Env::posix(), nodes, true, settings.cache_base,
                               settings.cntl_base, "");
    for (const auto& n : h.down)
      down[n] = "node-local storage is gone (" + io::path::join(settings.cache_base, n) + " or " +
                io::path::join(settings.cntl_base, n) + ")";
    if (notes) notes->insert(notes->end(), h.notes.begin(), h.notes.end());
    return down;
  }
  std::string note;
  for (auto& [n, state] : manager_down_nodes(alloc.job, nodes, &note))
    down[n] = alloc.job.manager + " reports state " + state;
  if (!note.empty() && notes) notes->push_back(note);
  return down;
}

Result<std::map<std::string, std::string>> down_nodes(const Allocation& alloc,
                                                      const std::vector<std::string>& nodes,
                                                      const std::optional<std::string>& given,
                                                      const rt::Settings& settings,
                                                      std::vector<std::string>* notes) {
  std::map<std::string, std::string> down;
  if (given) {
    auto list = expand_hosts(*given);
    if (!list) return Error(Errc::invalid_argument, "--down: " + list.status().message());
    for (const auto& n : *list) down[n] = "given with --down";
  }
  // Every node is checked, those given too: a simulated node's lost storage
  // tells only beside nodes that still have theirs.
  for (auto& [n, why] : find_down(alloc, nodes, settings, notes)) down.emplace(n, why);
  return down;
}

}  // namespace scr::tools::run
