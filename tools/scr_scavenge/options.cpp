#include "tools/scr_scavenge/options.hpp"

#include <cstdlib>
#include <set>

#include "common/strings.hpp"
#include "io/path.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/settings.hpp"
#include "runtime/prefix/identity.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/hostlist.hpp"
#include "tools/common/job_id.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/remote.hpp"
#include "tools/common/resmgr.hpp"

namespace scr::tools::scavenge {
namespace {

const OptionSpec kOptions[] = {
    {"--prefix", OptionSpec::value, "DIR",
     "the job's prefix directory (default: SCR_PREFIX, else .)", "-p"},
    {"--cache-base", OptionSpec::value, "DIR",
     "read every dataset from this cache base (default: each one's STORE, else SCR_CACHE_BASE)"},
    {"--cntl-base", OptionSpec::value, "DIR", "the control base (default: SCR_CNTL_BASE)"},
    {"--nodes", OptionSpec::value, "LIST",
     "the simulated nodes whose storage to read (default: SCR_SIM_NODES)"},
    {"--hosts", OptionSpec::value, "NODESET",
     "the job's hosts, whose caches only they see (default: SCR_NODELIST, else the "
     "resource manager's allocation)"},
    {"--remote", OptionSpec::value, "METHOD",
     "how to run on a host: srun, mpirun, pdsh, ssh, or an rsh-like command (default: "
     "SCR_NODE_REMOTE, else srun under SLURM, else pdsh when installed, else ssh)"},
    {"--timeout", OptionSpec::value, "SECS", "seconds a host has to answer the scan (60)"},
    {"--all", OptionSpec::flag, "",
     "every cached dataset not yet flushed, not only the newest checkpoint and outputs"},
    {"--json", OptionSpec::flag, "", "print the report as JSON"},
    kHelpOption,
};

Result<std::vector<std::string>> node_list(const std::string& text) {
  std::vector<std::string> nodes;
  std::set<std::string> seen;
  for (const auto& n : str::split(text, ',')) {
    std::string name = str::trim(n);
    if (!io::path::is_plain_name(name))
      return Error(Errc::invalid_argument, "--nodes: '" + name + "' is not a valid node name");
    if (!seen.insert(name).second)
      return Error(Errc::invalid_argument, "--nodes: node " + name + " is listed twice");
    nodes.push_back(name);
  }
  return nodes;
}

Result<std::string> find_job_id(io::Env& env, const rt::Settings& settings) {
  auto id = existing_job_id(env, settings);
  if (id) return id;
  // A configuration error (exit 1), not "nothing to scavenge" (2): scr_postrun
  // and scripts must not take an unidentified job for a saved one.
  return Error(Errc::invalid_argument,
               "cannot tell which job to scavenge: no resource manager job id (SLURM, LSF, Flux, "
               "PBS, Cobalt), no SCR_JOB_ID and no " +
                   io::path::join(rt::prefix_scr_dir(settings.prefix), "jobid") + "; set SCR_JOB_ID");
}

// The method SCR's scripts would use: the resource manager's launcher under
// SLURM, else pdsh, else ssh.
std::string default_remote(const JobEnv& job) {
  if (job.manager == "SLURM") return "srun";
  return find_on_path("pdsh").empty() ? "ssh" : "pdsh";
}

// The hosts whose caches are read through agents, and how they are reached.
// Simulated nodes and staged copies (--cache-base) are read here, and so is
// a job that ran on this host alone.
Status cluster_options(const Args& args, const rt::Config& config, Options* o) {
  auto job = detect_job_env();
  if (!job) return job.status();
  std::string list = args.value("--hosts").value_or("");
  if (list.empty()) {
    const char* nodelist = std::getenv("SCR_NODELIST");
    list = nodelist ? nodelist : "";
  }
  if (!list.empty()) {
    auto hosts = expand_hosts(list);
    if (!hosts) return Error(Errc::invalid_argument, "--hosts: " + hosts.status().message());
    o->hosts = *hosts;
  } else {
    o->hosts = job->nodes;
  }
  if (!o->nodes.empty() || o->cache_base_given ||
      (o->hosts.size() == 1 && o->hosts.front() == short_host_name()))
    o->hosts.clear();
  if (auto list = config.get("SCR_EXCLUDE_NODES"); list && !list->empty()) {
    auto hosts = expand_hosts(*list);
    if (!hosts) return Error(Errc::invalid_argument, "SCR_EXCLUDE_NODES: " + hosts.status().message());
    o->excluded.insert(hosts->begin(), hosts->end());
  }
  o->remote = args.value("--remote").value_or(config.get("SCR_NODE_REMOTE").value_or(""));
  if (o->remote.empty()) o->remote = default_remote(*job);
  if (auto t = args.value("--timeout")) {
    auto secs = str::parse_int(*t);
    if (!secs || *secs <= 0)
      return Error(Errc::invalid_argument, "--timeout: '" + *t + "' is not a number of seconds");
    o->timeout_seconds = static_cast<int>(*secs);
  }
  return Status::Ok();
}

}  // namespace

std::string help_text() {
  return "usage: scr_scavenge [--prefix DIR] [--cache-base DIR] [--cntl-base DIR] [--nodes LIST]\n"
         "                    [--hosts NODESET] [--remote METHOD] [--timeout SECS] [--all] [--json]\n"
         "After a run ends, copy the cached datasets that were not flushed (the newest\n"
         "checkpoint and every output dataset) from every node's cache to the prefix,\n"
         "rebuilding the files of lost nodes from redundancy data, verify them, and record\n"
         "them in the index as complete and flushed (the newest checkpoint as CURRENT).\n"
         "Nothing is marked flushed unless every file of every rank is there and verified.\n"
         "Run it once no job of this prefix runs any more; running it again does nothing.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nWith simulated nodes (SCR_SIM_NODES or --nodes) it reads every node's control\n"
         "directory (<cntl>/<node>/<user>/scr.<jobid>) and cache itself. On a cluster it runs\n"
         "itself on each host of the job (--hosts) through the remote method: each host\n"
         "reports its caches and copies its ranks' files to the prefix; the files of hosts\n"
         "that are down are rebuilt there from redundancy data. A job on this host alone is\n"
         "read here.\n\n" +
         exit_codes_help() +
         "\nExamples:\n"
         "  scr_scavenge --prefix /p/run1\n"
         "  scr_scavenge --prefix /p/run1 --nodes n0,n1,n2,n3 --json\n";
}

Result<Parsed> parse_options(io::Env& env, int argc, const char* const* argv) {
  auto args = parse_args(kOptions, argc, argv);
  if (!args) return args.status();
  Parsed parsed;
  if (args->has("--help")) {
    parsed.help = true;
    return parsed;
  }
  if (!args->positional().empty())
    return Error(Errc::invalid_argument,
                 "unexpected argument '" + args->positional().front() + "'");
  // The prefix first: its .scrconf is one of the configuration layers.
  if (auto p = args->value("--prefix")) ::setenv("SCR_PREFIX", absolute_path(*p).c_str(), 1);
  // A configuration error exits 1, also a user config file that is not
  // there: "not found" (2) would read as "nothing to scavenge". An I/O
  // error reading one keeps its own code (5).
  auto config_error = [](const Status& st) {
    return Error(st.code() == Errc::io_error ? Errc::io_error : Errc::invalid_argument,
                 "configuration: " + st.message());
  };
  auto config = rt::Config::load(rt::ConfigSources::process());
  if (!config) return config_error(config.status());
  auto settings = rt::settings_from_config(*config);
  if (!settings) return config_error(settings.status());

  Options& o = parsed.options;
  o.prefix = absolute_path(settings->prefix.empty() ? default_prefix() : settings->prefix);
  settings->prefix = o.prefix;
  o.cache_base = absolute_path(args->value("--cache-base").value_or(settings->cache_base));
  o.cache_base_given = args->has("--cache-base");
  o.cntl_base = absolute_path(args->value("--cntl-base").value_or(settings->cntl_base));
  std::string nodes = args->value("--nodes").value_or(settings->sim_nodes);
  if (!nodes.empty()) {
    SCR_ASSIGN_OR_RETURN(o.nodes, node_list(nodes));
  }
  o.prefix_size = settings->prefix_size;
  o.all = args->has("--all");
  o.json = args->has("--json");
  SCR_TRY(cluster_options(*args, *config, &o));
  SCR_TRY(check_dir(env, o.prefix).with_context("prefix"));
  // A staged copy named on the command line that is not there is a mistake
  // to report as such, not data found damaged.
  if (o.cache_base_given) SCR_TRY(check_dir(env, o.cache_base).with_context("--cache-base"));
  o.user = rt::user_name(*settings);
  SCR_ASSIGN_OR_RETURN(o.job_id, find_job_id(env, *settings));
  return parsed;
}

}  // namespace scr::tools::scavenge
