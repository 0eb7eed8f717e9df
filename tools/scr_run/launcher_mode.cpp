#include "tools/scr_run/launcher_mode.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "common/strings.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/resmgr.hpp"
#include "tools/common/times.hpp"
#include "tools/scr_run/launch.hpp"
#include "tools/scr_run/node_plan.hpp"
#include "tools/scr_run/run_options.hpp"
#include "tools/scr_run/runner.hpp"
#include "tools/scr_run/scavenge_hook.hpp"

namespace scr::tools::run {
namespace {

struct Launcher {
  std::string_view name;
  std::string_view manager;                  // the one it needs, or "" for any
  std::vector<std::string_view> node_words;  // how to pin a run to {nodes}
  bool subcommand = false;                   // node words go after the first word (flux run)
};

const Launcher kLaunchers[] = {
    {"srun", "SLURM", {"--nodelist={nodes}"}},
    {"mpirun", "", {"--host", "{nodes}"}},
    {"flux", "FLUX", {"--requires=host:{nodes}"}, true},
};

std::string pin_words(const Launcher& launcher) {
  std::string w;
  for (auto p : launcher.node_words) w += (w.empty() ? "" : " ") + std::string(p);
  return w;
}

std::string usage(const std::string& tool, const Launcher& launcher) {
  std::string l(launcher.name);
  return "usage: " + tool + " [" + l + " options] PROGRAM [ARGS...]\n"
         "Run `" + l + " [" + l + " options] PROGRAM [ARGS...]` under SCR++'s relaunch loop\n"
         "(scr_run --launcher " + l + "): after a failed run, unless the job asked to stop or\n"
         "SCR_RUNS runs are used up, the nodes found down are replaced by spare nodes of the\n"
         "allocation and the job runs again; at the end the cached datasets that were not\n"
         "flushed are scavenged (scr_scavenge). Every word goes to " + l + ".\n\n"
         "Nodes: with SCR_SIM_NODES the allocation is those simulated nodes; otherwise the\n"
         "resource manager's hosts (SLURM, Flux, LSF or PBS, found at run time). When\n"
         "SCR_MIN_NODES is less than the allocation's node count, each run uses that many\n"
         "nodes and the rest are spares (real hosts are passed to " + l + " as `" +
         pin_words(launcher) + "`);\n"
         "without it a relaunch needs as many nodes as the last run had (.scr/nodes.scr), on\n"
         "the hosts left (srun is given --exclude for the down ones; other launchers are\n"
         "not relaunched then). Down hosts are those scr_list_down_nodes names.\n"
         "SCR_ENABLE=0 runs " + l + " once, directly.\n\n"
         "Exit status: as scr_run (0 the job finished, 1 usage or configuration error,\n"
         "2 nothing was run, 3 damaged halt file, 4 the job did not finish).\n";
}

// SCR's -rc/--run-cmd and -rs/--restart-cmd, alone or with "=COMMAND".
bool scr_run_only_option(std::string_view w) {
  for (std::string_view o : {"-rc", "--run-cmd", "-rs", "--restart-cmd"})
    if (w == o || (str::starts_with(w, o) && w.size() > o.size() && w[o.size()] == '='))
      return true;
  return false;
}

}  // namespace

std::vector<std::string> runner_args(const std::string& launcher_name,
                                     const std::vector<std::string>& sim_nodes,
                                     const std::vector<std::string>& hosts, int64_t needed,
                                     const std::string& down_check,
                                     const std::vector<std::string>& words) {
  const Launcher* launcher = nullptr;
  for (const auto& l : kLaunchers)
    if (l.name == launcher_name) launcher = &l;
  std::vector<std::string> args{"scr_run", "--launcher", launcher_name};
  std::vector<std::string> pin;
  // The first `needed` nodes run, the others are spares; true when split.
  auto split_allocation = [&](const std::vector<std::string>& all) {
    if (needed > 0 && needed < static_cast<int64_t>(all.size())) {
      std::vector<std::string> nodes(all.begin(), all.begin() + needed);
      std::vector<std::string> spares(all.begin() + needed, all.end());
      args.insert(args.end(), {"--nodes", join_nodes(nodes), "--spares", join_nodes(spares)});
      return true;
    }
    args.insert(args.end(), {"--nodes", join_nodes(all)});
    return false;
  };
  if (!sim_nodes.empty()) {
    split_allocation(sim_nodes);
  } else if (!hosts.empty()) {
    args.push_back("--real-nodes");
    if (split_allocation(hosts) && launcher)
      for (auto w : launcher->node_words) pin.emplace_back(w);
    if (!down_check.empty()) args.insert(args.end(), {"--down-check", down_check});
  }
  args.push_back("--");
  auto rest = words.begin();
  if (launcher && launcher->subcommand && !pin.empty() && rest != words.end())
    args.push_back(*rest++);
  args.insert(args.end(), pin.begin(), pin.end());
  args.insert(args.end(), rest, words.end());
  return args;
}

std::string scr_run_launcher(const std::string& word) {
  std::string name = word.substr(word.find_last_of('/') + 1);
  for (const char* l : {"srun", "mpirun", "flux", "jsrun", "lrun", "aprun"})
    if (name == l) return name;
  return "";
}

int launcher_main(const std::string& launcher_name, int argc, char** argv, std::string tool) {
  if (tool.empty()) tool = "scr_" + launcher_name;
  Cli cli(tool);
  const Launcher* launcher = nullptr;
  for (const auto& l : kLaunchers)
    if (l.name == launcher_name) launcher = &l;
  if (!launcher) return cli.usage_error("unknown launcher '" + launcher_name + "'");
  std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty() || words[0] == "-h" || words[0] == "--help") {
    std::fputs(usage(tool, *launcher).c_str(), words.empty() ? stderr : stdout);
    return words.empty() ? kUsage : kFinished;
  }
  for (const auto& w : words)
    if (scr_run_only_option(w))
      return cli.usage_error(
          "'" + w + "' (SCR's --run-cmd/--restart-cmd) is not supported: SCR++ runs one "
          "command for first runs and restarts alike (the application asks SCR_Have_restart)");

  std::vector<std::string> launch{std::string(launcher->name)};
  launch.insert(launch.end(), words.begin(), words.end());
  if (scr_disabled_by_environment()) {
    Outcome o = run_program(launch);
    if (!o.started) return cli.fail(kNothingRun, o.error);
    return o.exit_code;
  }

  auto job = detect_job_env();
  if (!job) return cli.fail(kUsage, job.status().message());
  if (!launcher->manager.empty() && job->manager != launcher->manager)
    return cli.fail(kUsage, "not inside a " + std::string(launcher->manager) + " allocation" +
                                (job->manager.empty() ? "" : " (found " + job->manager + ")") +
                                "; " + tool + " needs one");

  // As SCR's launchers do, tell the job when the allocation ends, so that
  // SCR_HALT_SECONDS can stop it in time.
  if (const char* e = std::getenv("SCR_END_TIME"); !e || !*e)
    if (int64_t end = manager_end_time(*job); end > 0) {
      ::setenv("SCR_END_TIME", std::to_string(end).c_str(), 1);
      std::printf("%s: the allocation ends at %s (SCR_END_TIME=%lld)\n", tool.c_str(),
                  local_time(end).c_str(), static_cast<long long>(end));
    }

  auto min_nodes = config_int("SCR_MIN_NODES");
  if (!min_nodes) return cli.fail(kUsage, min_nodes.status().message());
  const char* sim = std::getenv("SCR_SIM_NODES");
  std::vector<std::string> args =
      runner_args(launcher_name, split_nodes(sim ? sim : ""), job->nodes, *min_nodes,
                  job->nodes.empty() ? "" : find_sibling("scr_list_down_nodes"), words);

  std::vector<const char*> cargs;
  for (const auto& a : args) cargs.push_back(a.c_str());
  auto parsed = parse_run_options(static_cast<int>(cargs.size()), cargs.data());
  if (!parsed) return cli.fail(kUsage, parsed.status().message());
  parsed->options.scavenger = "scr_postrun";  // as SCR's launchers end: postrun scavenges
  std::printf("%s: resource manager %s%s\n", tool.c_str(),
              job->manager.empty() ? "none" : job->manager.c_str(),
              job->job_id.empty() ? "" : (", job " + job->job_id).c_str());
  std::fflush(stdout);
  return run_loop(std::move(parsed->options), tool);
}

}  // namespace scr::tools::run
