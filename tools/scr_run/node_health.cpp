#include "tools/scr_run/node_health.hpp"

#include "io/path.hpp"
#include "tools/scr_run/launch.hpp"
#include "tools/scr_run/node_plan.hpp"

namespace scr::tools::run {
namespace {

bool has_storage(io::Env& env, const std::string& base, const std::string& node) {
  auto info = env.stat(io::path::join(base, node));
  return info && info->is_dir();
}

// The hook's verdict; a hook that cannot run (the shell's 126/127) counts
// as "healthy" and is reported, so a typo in it does not take every node out
// of the job. Its verdict is its exit status: what it prints on stdout (as
// scr_list_down_nodes names the down node, the launcher commands' hook) is
// not the job's output and is dropped; stderr stays for its diagnostics.
bool hook_says_down(const std::string& cmd, const std::string& node, Health* health) {
  Outcome o =
      run_program({"/bin/sh", "-c", "{ " + cmd + " \"$1\"; } >/dev/null", "scr_run-down-check", node});
  if (!o.started || o.exit_code == 126 || o.exit_code == 127) {
    if (health)
      health->notes.push_back("--down-check '" + cmd + "' could not run (" + o.describe() + ")");
    return false;
  }
  return o.exit_code != 0;
}

}  // namespace

Health find_down_nodes(io::Env& env, const std::vector<std::string>& nodes, bool check_storage,
                       const std::string& cache_base, const std::string& cntl_base,
                       const std::string& down_check) {
  Health h;
  if (check_storage) {
    std::vector<std::string> missing;
    bool any_storage = false;
    for (const auto& n : nodes) {
      bool cache = has_storage(env, cache_base, n), cntl = has_storage(env, cntl_base, n);
      any_storage |= cache || cntl;
      if (!cache || !cntl) missing.push_back(n);
    }
    if (any_storage)
      h.down.insert(missing.begin(), missing.end());
    else
      h.notes.push_back("no node of " + join_nodes(nodes) + " has storage under " + cache_base +
                        ": the run ended before SCR_Init, so no node is known to be down");
  }
  if (!down_check.empty())
    for (const auto& n : nodes)
      if (hook_says_down(down_check, n, &h)) h.down.insert(n);
  return h;
}

std::set<std::string> spares_down(const std::vector<std::string>& spares,
                                  const std::string& down_check) {
  std::set<std::string> down;
  if (down_check.empty()) return down;
  for (const auto& s : spares)
    if (hook_says_down(down_check, s, nullptr)) down.insert(s);
  return down;
}

}  // namespace scr::tools::run
