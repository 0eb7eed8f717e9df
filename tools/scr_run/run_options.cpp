#include "tools/scr_run/run_options.hpp"

#include <cstdlib>
#include <set>

#include "io/path.hpp"
#include "runtime/config/config.hpp"
#include "tools/common/args.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_run/node_plan.hpp"

namespace scr::tools::run {
namespace {

const OptionSpec kOptions[] = {
    {"--runs", OptionSpec::value, "N", "runs in all, -1 for no limit (default: SCR_RUNS, else 1)"},
    {"--min-nodes", OptionSpec::value, "N",
     "relaunch on N nodes or more only (default: SCR_MIN_NODES, else as many as the\n"
     "last run had (.scr/nodes.scr), else all)"},
    {"--nodes", OptionSpec::value, "LIST",
     "nodes of the first run, in rank order (default: SCR_SIM_NODES)"},
    {"--spares", OptionSpec::value, "LIST", "spare nodes that replace nodes found down"},
    {"--real-nodes", OptionSpec::flag, "",
     "the nodes are hosts: no SCR_SIM_NODES, no storage check"},
    {"--down-check", OptionSpec::value, "CMD",
     "also ask `CMD NODE` (exit 0 = healthy) after a failed run"},
    {"--prefix", OptionSpec::value, "DIR",
     "the job's prefix directory (default: SCR_PREFIX, else .)"},
    {"--launcher", OptionSpec::value, "PROGRAM", "what runs the job (default: mpirun)"},
    {"--no-scavenge", OptionSpec::flag, "", "do not run scr_scavenge at the end"},
    {"--help", OptionSpec::flag, "", "show this help"},
};

Status check_names(const std::vector<std::string>& names, const char* option) {
  for (const auto& n : names)
    if (!io::path::is_plain_name(n))
      return Error(Errc::invalid_argument,
                   std::string(option) + ": '" + n + "' is not a valid node name");
  return Status::Ok();
}

Status check_node_lists(const RunOptions& o) {
  SCR_TRY(check_names(o.nodes, "--nodes"));
  SCR_TRY(check_names(o.spares, "--spares"));
  std::set<std::string> seen;
  for (const auto& n : o.nodes)
    if (!seen.insert(n).second)
      return Error(Errc::invalid_argument, "node " + n + " is listed twice");
  for (const auto& n : o.spares)
    if (!seen.insert(n).second)
      return Error(Errc::invalid_argument,
                   "spare " + n + " is listed twice or is also a node of the job");
  if (!o.spares.empty() && o.nodes.empty())
    return Error(Errc::invalid_argument,
                 "--spares needs the job's nodes (--nodes or SCR_SIM_NODES)");
  if (o.real_nodes && o.nodes.empty())
    return Error(Errc::invalid_argument, "--real-nodes needs --nodes");
  return Status::Ok();
}

}  // namespace

std::string run_help() {
  return "usage: scr_run [options] -- LAUNCHER-ARGS...\n"
         "       scr_run srun|mpirun|flux [launcher options] PROGRAM [ARGS...]   (SCR's form:\n"
         "       as scr_srun, scr_mpirun, scr_flux)\n"
         "Run an SCR++ job (`mpirun LAUNCHER-ARGS...`) and, when a run fails, relaunch it in\n"
         "the same allocation: the job restarts from its cached checkpoints. Before each\n"
         "relaunch scr_run checks whether the job asked to stop (the halt file: conditions\n"
         "set with scr_halt, or FINALIZED by SCR_Finalize) and which nodes are down, puts\n"
         "spares in their place, and gives up after SCR_RUNS runs or when fewer than\n"
         "SCR_MIN_NODES nodes remain. At the end it runs `scr_scavenge --prefix DIR` (found\n"
         "beside scr_run or on PATH) to save cached datasets that were not flushed.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nNodes: with --nodes (or SCR_SIM_NODES) the job runs on simulated nodes: each run\n"
         "gets SCR_SIM_NODES set to its node list, and a node is down when its storage\n"
         "(<SCR_CACHE_BASE>/<node> or <SCR_CNTL_BASE>/<node>) is gone after a run that\n"
         "created storage on the other nodes. --down-check adds a check of your own; with\n"
         "--real-nodes it is the only one. The word {nodes} in LAUNCHER-ARGS becomes the\n"
         "run's node list (e.g. srun --nodelist={nodes}).\n\n"
         "Exit status:\n"
         "  0  the job finished (a run exited 0, or SCR_Finalize ran)\n"
         "  1  usage or configuration error\n"
         "  2  nothing was run: a halt condition holds, or the launcher was not found\n"
         "  3  the halt file is damaged, so whether to relaunch cannot be decided\n"
         "  4  the job did not finish: runs used up, too few nodes, halted, or interrupted\n\n"
         "Example:\n"
         "  scr_run --runs 3 --nodes n0,n1,n2,n3 --spares n4 -- -n 8 ./heat -n 1000 -c 50\n";
}

Result<rt::Settings> job_settings(const std::string& prefix) {
  if (!prefix.empty()) ::setenv("SCR_PREFIX", absolute_path(prefix).c_str(), 1);
  auto config = rt::Config::load(rt::ConfigSources::process());
  if (!config) return config.status().with_context("configuration");
  auto settings = rt::settings_from_config(*config);
  if (!settings) return settings.status().with_context("configuration");
  return *settings;
}

Result<int64_t> config_int(const char* name) {
  auto config = rt::Config::load(rt::ConfigSources::process());
  if (!config) return config.status().with_context("configuration");
  return config->get_int(name);
}

Result<ParsedOptions> parse_run_options(int argc, const char* const* argv) {
  auto args = parse_args(kOptions, argc, argv);
  if (!args) return args.status();
  ParsedOptions parsed;
  if (args->has("--help")) {
    parsed.help = true;
    return parsed;
  }
  if (!args->saw_separator())
    return Error(Errc::invalid_argument,
                 "give the launcher's arguments after '--' (scr_run [options] -- -n 8 ./app)");
  if (args->positional().empty())
    return Error(Errc::invalid_argument, "nothing to run: no launcher arguments after '--'");
  RunOptions& o = parsed.options;
  o.launcher_args = args->positional();
  if (auto v = args->value("--launcher")) o.launcher = *v;
  o.down_check = args->value("--down-check").value_or("");
  o.scavenge = !args->has("--no-scavenge");
  o.real_nodes = args->has("--real-nodes");

  // The runner's --prefix is the job's SCR_PREFIX, set before the
  // configuration is read so the user config file of that prefix is the one read.
  SCR_ASSIGN_OR_RETURN(o.settings, job_settings(args->value("--prefix").value_or("")));
  auto config = rt::Config::load(rt::ConfigSources::process());
  if (!config) return config.status().with_context("configuration");

  auto runs = args->value("--runs") ? int_value("--runs", *args->value("--runs"), -1, INT32_MAX)
                                    : config->get_int("SCR_RUNS");
  if (!runs) return runs.status();
  if (*runs == 0)
    return Error(Errc::invalid_argument, "runs must be -1 (no limit) or at least 1, not 0");
  o.runs = static_cast<int>(*runs);
  auto min_nodes = args->value("--min-nodes")
                       ? int_value("--min-nodes", *args->value("--min-nodes"), 0, INT32_MAX)
                       : config->get_int("SCR_MIN_NODES");
  if (!min_nodes) return min_nodes.status();
  o.min_nodes = static_cast<int>(*min_nodes);

  if (auto v = args->value("--nodes"))
    o.nodes = split_nodes(*v);
  else if (!o.real_nodes)
    o.nodes = split_nodes(o.settings.sim_nodes);
  o.spares = split_nodes(args->value("--spares").value_or(""));
  if (o.real_nodes && !o.settings.sim_nodes.empty())
    return Error(Errc::invalid_argument,
                 "--real-nodes contradicts SCR_SIM_NODES=" + o.settings.sim_nodes);
  SCR_TRY(check_node_lists(o));
  return parsed;
}

}  // namespace scr::tools::run
