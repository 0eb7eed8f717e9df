// scr_list_down_nodes: SCR's command that names the nodes of the allocation
// a job should not run on, in the range syntax (n[2,5]) job scripts pass to
// `srun --exclude`, or with -r one "node: reason" line each. As SCR's, it
// tests the nodes itself: SCR_EXCLUDE_NODES, the resource manager's verdict,
// and each node answering a command within a bounded time with usable cache
// and control directories (SCR_NODE_REMOTE; tools/scr_run/node_probe.hpp).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "runtime/config/params.hpp"
#include "runtime/config/params_values.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/hostlist.hpp"
#include "tools/scr_run/allocation.hpp"
#include "tools/scr_run/run_options.hpp"

namespace {

using namespace scr;
using namespace scr::tools;

// Exit codes: SCR's (none down 0, some down non-zero), then errors.
constexpr int kNoneDown = 0, kSomeDown = 1, kError = 2;

const OptionSpec kOptions[] = {
    kJobLauncherOption,
    {"--reason", OptionSpec::flag, "", "print each down node with the reason", "-r"},
    {"--down", OptionSpec::value, "NODESET", "count these nodes as down without checking", "-d"},
    {"--free", OptionSpec::flag, "", "compare free space, not capacity, with SCR_NODE_MIN_BYTES", "-f"},
    {"--remote", OptionSpec::value, "METHOD",
     "test each node through srun, pdsh, ssh or an rsh-like command (SCR_NODE_REMOTE)"},
    {"--timeout", OptionSpec::value, "SECS", "seconds a node has to answer (SCR_NODE_TIMEOUT, 10)"},
    {"--min-bytes", OptionSpec::value, "SIZE",
     "capacity each node's cache and control base needs (SCR_NODE_MIN_BYTES)"},
    {"--log", OptionSpec::flag, "", "(SCR: log each down node) not supported", "-l"},
    {"--secs", OptionSpec::value, "N", "(SCR: runtime for the log) not supported", "-s"},
    kHelpOption,
};

std::string help_text() {
  return "usage: scr_list_down_nodes [options] [NODESET]\n"
         "Print the nodes of NODESET (default: the allocation) that a job should not run on,\n"
         "in range syntax (\"n[2,5]\"), nothing when none is. The allocation is SCR_SIM_NODES\n"
         "when set (a simulated node is down when its node-local storage under SCR_CACHE_BASE\n"
         "or SCR_CNTL_BASE is gone while another node's remains), else the hosts of the\n"
         "resource manager found at run time (SLURM, Flux, LSF, PBS). A node is down when\n"
         "SCR_EXCLUDE_NODES names it, when the resource manager reports it so (SLURM: DOWN,\n"
         "DRAIN, FAIL or not responding), or, with a remote method (--remote), when it does\n"
         "not run a command within --timeout seconds or its SCR_CACHE_BASE or SCR_CNTL_BASE\n"
         "is missing, not writable or smaller than --min-bytes.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nExit status:\n"
         "  0  no node is down\n"
         "  1  some nodes are down (listed on stdout)\n"
         "  2  usage error, or no node set to check\n";
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_list_down_nodes");
  Args parsed;
  if (auto done = begin_command(cli, kOptions, argc, argv, help_text, &parsed, true, kError))
    return *done;
  const Args* args = &parsed;
  for (const char* opt : {"--log", "--secs"})
    if (args->has(opt))
      return cli.fail(kError, std::string(opt) +
                                  " is an SCR option SCR++ does not support (the event log is the "
                                  "library's)");
  // The options are the configuration's parameters, given for this command
  // (checked here, so that an error names the option, not the environment).
  for (auto [opt, param] : {std::pair{"--remote", "SCR_NODE_REMOTE"},
                            std::pair{"--timeout", "SCR_NODE_TIMEOUT"},
                            std::pair{"--min-bytes", "SCR_NODE_MIN_BYTES"}})
    if (auto v = args->value(opt)) {
      if (const rt::ParamSpec* spec = rt::find_param(param))
        if (auto checked = rt::check_value(opt, spec->value, *v); !checked)
          return cli.usage_error(checked.status().message()), kError;
      ::setenv(param, v->c_str(), 1);
    }
  if (args->positional().size() > 1)
    return cli.usage_error("give one NODESET (commas separate nodes: n0,n1 or n[0-1])"), kError;

  auto settings = run::job_settings("");
  if (!settings) return cli.fail(kError, settings.status().message());
  auto alloc = run::find_allocation(*settings);
  if (!alloc) return cli.fail(kError, alloc.status().message());
  std::vector<std::string> nodes = alloc->nodes;
  if (!args->positional().empty()) {
    auto given = expand_hosts(args->positional().front());
    if (!given) return cli.fail(kError, given.status().message());
    nodes = *given;
  }
  if (nodes.empty() && !args->has("--down"))
    return cli.fail(kError,
                    "no node set: give NODESET, set SCR_SIM_NODES, or run inside an allocation");
  std::vector<std::string> notes;
  auto down =
      run::down_nodes(*alloc, nodes, args->value("--down"), *settings, &notes, args->has("--free"));
  if (!down) return cli.fail(kError, down.status().message());
  for (const auto& n : notes) cli.note(n);
  if (down->empty()) return kNoneDown;
  if (args->has("--reason")) {
    for (const auto& [n, why] : *down) std::printf("%s: %s\n", n.c_str(), why.c_str());
  } else {
    std::vector<std::string> names;
    for (const auto& [n, why] : *down) names.push_back(n);
    std::printf("%s\n", compress_hosts(names).c_str());
  }
  return kSomeDown;
}
