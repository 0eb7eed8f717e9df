// scr_should_exit: SCR's job-script test between runs: exit 0 when the job
// script should stop launching runs, 1 when another run may start. It stops
// when the halt file says so (a condition set with scr_halt or by the job,
// or FINALIZED: SCR_Finalize ran, the job is done), or when fewer nodes than
// needed (--min-nodes, else SCR_MIN_NODES, else as many as the last run had
// (.scr/nodes.scr), else all the allocation's) are left up, or when SCR's loop
// script says it has no runs left (--runs 0).
#include <cstdio>
#include <optional>
#include <string>

#include "io/env.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/scr_run/allocation.hpp"
#include "tools/scr_run/halt_check.hpp"
#include "tools/scr_run/run_options.hpp"

namespace {

using namespace scr;
using namespace scr::tools;

constexpr int kExit = 0, kContinue = 1, kError = 2;

const OptionSpec kOptions[] = {
    kJobPrefixOption,
    {"--down", OptionSpec::value, "NODESET", "count these nodes as down as well"},
    // SCR's own options; its loop job script passes --runs (`-p DIR --runs $runs`).
    {"--min-nodes", OptionSpec::value, "N", "nodes needed (instead of SCR_MIN_NODES)"},
    {"--runs", OptionSpec::value, "N", "runs the job script has left: 0 means exit"},
    {"--verbose", OptionSpec::flag, "", "say why", "-v"},
    kHelpOption,
};

std::string help_text() {
  return "usage: scr_should_exit [-p DIR] [--down NODESET] [--min-nodes N] [--runs N] [-v]\n"
         "Tell a job script whether to stop launching runs: it should when the halt file\n"
         "of the prefix holds a condition (scr_halt, SCR_HALT_SECONDS before the allocation\n"
         "ends) or FINALIZED for this job (the job is done), or when fewer nodes than\n"
         "needed remain up (--min-nodes, else SCR_MIN_NODES, else as many as the last run\n"
         "had (.scr/nodes.scr), else every node of the allocation; down nodes as\n"
         "scr_list_down_nodes finds them, plus --down), or when --runs is 0.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nExit status:\n"
         "  0  the job script should exit\n"
         "  1  another run may start\n"
         "  2  usage or configuration error\n";
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_should_exit");
  Args parsed;
  if (auto done = begin_command(cli, kOptions, argc, argv, help_text, &parsed, false, kError))
    return *done;
  const Args* args = &parsed;
  bool verbose = args->has("--verbose");
  // Both checked before anything is read: a malformed value is a usage error.
  std::optional<int64_t> runs, min_nodes_opt;
  if (auto v = args->value("--runs")) {
    auto n = int_value("--runs", *v, INT32_MIN, INT32_MAX);
    if (!n) {
      cli.usage_error(n.status().message());
      return kError;
    }
    runs = *n;
  }
  if (auto v = args->value("--min-nodes")) {
    auto n = int_value("--min-nodes", *v, 0, INT32_MAX);
    if (!n) {
      cli.usage_error(n.status().message());
      return kError;
    }
    min_nodes_opt = *n;
  }
  auto say = [&](const std::string& why) {
    if (verbose) std::printf("scr_should_exit: %s\n", why.c_str());
  };

  auto settings = run::job_settings(args->value("--prefix").value_or(""));
  if (!settings) return cli.fail(kError, settings.status().message());
  io::Env& env = io::Env::posix();
  auto verdict = run::read_verdict(env, *settings);
  if (!verdict) {
    say(verdict.status().message() + ": whether the job asked to stop is unknown; exit");
    return kExit;
  }
  if (!verdict->finalized.empty()) {
    say("SCR_Finalize ran (FINALIZED=" + verdict->finalized + "): the job is done; exit");
    return kExit;
  }
  if (!verdict->stop_reason.empty()) {
    say("halt condition: " + verdict->stop_reason + "; exit");
    return kExit;
  }

  auto alloc = run::find_allocation(*settings);
  if (!alloc) return cli.fail(kError, alloc.status().message());
  std::vector<std::string> notes;
  auto down = run::down_nodes(*alloc, alloc->nodes, args->value("--down"), *settings, &notes);
  if (!down) return cli.fail(kError, down.status().message());
  for (const auto& [n, why] : *down) say(n + " is down: " + why);
  for (const auto& n : notes) say("note: " + n);
  size_t up = 0;
  for (const auto& n : alloc->nodes) up += down->count(n) ? 0 : 1;
  Result<int64_t> min_nodes = min_nodes_opt ? Result<int64_t>(*min_nodes_opt)
                                             : run::config_int("SCR_MIN_NODES");
  if (!min_nodes) return cli.fail(kError, min_nodes.status().message());
  // As SCR's: --min-nodes as given (0: none needed), else SCR_MIN_NODES,
  // else as many as the last run had, else all.
  size_t needed = min_nodes_opt ? static_cast<size_t>(*min_nodes_opt)
                                : run::nodes_needed(*settings, *min_nodes, alloc->nodes.size());
  if (!alloc->nodes.empty() && up < needed) {
    say(std::to_string(up) + " of " + std::to_string(alloc->nodes.size()) +
        " nodes are up, fewer than the " + std::to_string(needed) + " needed; exit");
    return kExit;
  }
  // Last, as SCR's does, so that a halt condition or a lost node is the
  // reason given when there is one. A negative count is the loop's own
  // affair (SCR's -1 for no limit).
  if (runs && *runs == 0) {
    say("no runs left (--runs 0); exit");
    return kExit;
  }
  say("no halt condition" +
      (alloc->nodes.empty() ? std::string(", no node list to check")
                            : ", " + std::to_string(up) + " of " +
                                  std::to_string(alloc->nodes.size()) + " nodes up") +
      ": another run may start");
  return kContinue;
}
