#include "tools/scr_run/runner.hpp"

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tools/scr_run/allocation.hpp"
#include "tools/scr_run/halt_check.hpp"
#include "tools/scr_run/launch.hpp"
#include "tools/scr_run/node_health.hpp"
#include "tools/scr_run/node_plan.hpp"
#include "tools/scr_run/scavenge_hook.hpp"

namespace scr::tools::run {
namespace {

// The launcher's own name, whatever path it was given by.
std::string launcher_name(const RunOptions& o) {
  return o.launcher.substr(o.launcher.find_last_of('/') + 1);
}

// A run pinned to its nodes names them in its arguments ({nodes}).
bool pinned(const RunOptions& o) {
  for (const auto& a : o.launcher_args)
    if (a.find("{nodes}") != std::string::npos) return true;
  return false;
}

// `excluded`: hosts an unpinned srun run must leave out (srun --exclude), as
// SCR's launcher does after it found them down.
std::vector<std::string> launch_argv(const RunOptions& o, const std::vector<std::string>& nodes,
                                     const std::vector<std::string>& excluded) {
  std::vector<std::string> argv{o.launcher};
  if (!excluded.empty()) argv.push_back("--exclude=" + join_nodes(excluded));
  for (std::string a : o.launcher_args) {
    for (size_t at; (at = a.find("{nodes}")) != std::string::npos;)
      a.replace(at, 7, join_nodes(nodes));
    argv.push_back(a);
  }
  return argv;
}

std::string words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

std::string down_words(const std::set<std::string>& down) {
  if (down.empty()) return "no node is down";
  std::vector<std::string> list(down.begin(), down.end());
  return (list.size() == 1 ? "node " : "nodes ") + join_nodes(list) +
         (list.size() == 1 ? " is down" : " are down");
}

class Runner {
 public:
  Runner(RunOptions o, std::string tool)
      : o_(std::move(o)), tool_(std::move(tool)), nodes_(o_.nodes), spares_(o_.spares) {
    min_nodes_ = o_.min_nodes > 0 ? o_.min_nodes : static_cast<int>(nodes_.size());
  }

  int run() {
    forward_signals();
    if (int code = before_first_run(); code >= 0) return code;
    for (int n = 1;; ++n) {
      if (!nodes_.empty() && !o_.real_nodes)
        ::setenv("SCR_SIM_NODES", join_nodes(nodes_).c_str(), 1);
      auto argv = launch_argv(o_, nodes_, excluded_);
      say("run " + std::to_string(n) + (o_.runs > 0 ? " of " + std::to_string(o_.runs) : "") +
          (nodes_.empty() ? "" : " on " + join_nodes(nodes_)) + ": " + words(argv));
      Outcome outcome = run_program(argv);
      if (!outcome.started) {
        say(outcome.error);
        return finish(n > 1, kNothingRun);
      }
      if (outcome.ok()) {
        say("run " + std::to_string(n) + " finished (exit 0): the job is done");
        return finish(true, kFinished);
      }
      std::string failed = "run " + std::to_string(n) + " failed (" + outcome.describe() + ")";
      if (int code = after_failure(n, failed); code >= 0) return finish(true, code);
    }
  }

 private:
  // Returns an exit code when no run must start, else -1.
  int before_first_run() {
    auto verdict = read_verdict(env_, o_.settings);
    if (!verdict) {
      say("note: " + verdict.status().message() + "; the job will ignore the halt file");
    } else if (!verdict->stop_reason.empty()) {
      say("not starting: a halt condition holds (" + verdict->stop_reason +
          "); scr_halt --prefix " + o_.settings.prefix + " --list shows it, --remove clears it");
      return kNothingRun;
    }
    if (auto cleared = clear_stale_finalized(env_, o_.settings); cleared && !cleared->empty())
      say("removed FINALIZED=" + *cleared + " left in the halt file by an earlier run of this job");
    // As SCR's (its prerun): the node count an earlier allocation's run
    // recorded must not decide how many nodes this one's relaunches need.
    (void)env_.unlink(rt::prefix_nodes_path(o_.settings.prefix));
    return -1;
  }

  // Decides what follows failed run n: an exit code, or -1 to relaunch.
  int after_failure(int n, const std::string& failed) {
    if (int sig = stop_signal()) {
      say(failed + "; scr_run was asked to stop (signal " + std::to_string(sig) +
          "); not relaunching");
      return kNotFinished;
    }
    auto verdict = read_verdict(env_, o_.settings);
    if (!verdict) {
      say(failed + "; " + verdict.status().message() +
          ", so whether the job asked to stop is unknown; not relaunching");
      return kHaltUnreadable;
    }
    if (!verdict->finalized.empty()) {
      say(failed + " after SCR_Finalize had run (FINALIZED=" + verdict->finalized +
          "): the job is done");
      return kFinished;
    }
    if (!verdict->stop_reason.empty()) {
      say(failed + "; the job asked to stop (" + verdict->stop_reason + "); not relaunching");
      return kNotFinished;
    }
    if (o_.runs > 0 && n >= o_.runs) {
      say(failed + "; no runs left (" + std::to_string(o_.runs) + " in all, SCR_RUNS or --runs)");
      return kNotFinished;
    }
    if (nodes_.empty()) {
      say(failed + "; relaunching");
      return -1;
    }
    Health health = find_down_nodes(env_, nodes_, !o_.real_nodes, o_.settings.cache_base,
                                    o_.settings.cntl_base, o_.down_check);
    for (const auto& note : health.notes) say("note: " + note);
    std::set<std::string> down = health.down;
    std::set<std::string> bad_spares = spares_down(spares_, o_.down_check);
    down.insert(bad_spares.begin(), bad_spares.end());
    NodePlan plan = plan_nodes(nodes_, spares_, down);
    std::string what = failed + "; " + down_words(health.down);
    for (const auto& s : bad_spares) what += "; spare " + s + " is down too";
    if (!plan.dropped.empty()) what += "; no spare left for " + join_nodes(plan.dropped);
    // Without SCR_MIN_NODES, as SCR's: as many nodes as the run that failed
    // had (SCR_Init recorded them), else all the first run had.
    int needed = o_.min_nodes > 0 ? o_.min_nodes
                                  : static_cast<int>(nodes_needed(o_.settings, 0, min_nodes_));
    if (static_cast<int>(plan.nodes.size()) < needed || plan.nodes.empty()) {
      say(what + "; " + std::to_string(plan.nodes.size()) +
          (plan.nodes.size() == 1 ? " node remains" : " nodes remain") + ", fewer than the " +
          std::to_string(needed) + " required (SCR_MIN_NODES or --min-nodes, else the last run's node count); not relaunching");
      return kNotFinished;
    }
    // A run not pinned to its nodes lets the launcher choose among the
    // allocation's hosts: it must be told to leave the down ones out.
    if (o_.real_nodes && !pinned(o_) && !plan.dropped.empty()) {
      if (launcher_name(o_) != "srun") {
        say(what + "; " + launcher_name(o_) + " cannot be told to leave " + join_nodes(plan.dropped) +
            " out (set SCR_MIN_NODES to run on part of the allocation, the rest as spares); not relaunching");
        return kNotFinished;
      }
      excluded_.insert(excluded_.end(), plan.dropped.begin(), plan.dropped.end());
    }
    nodes_ = plan.nodes;
    spares_ = plan.spares;
    say(what + "; relaunching on " + join_nodes(nodes_));
    return -1;
  }

  int finish(bool ran, int code) {
    if (!ran) return code;
    if (!o_.scavenge) {
      say("not scavenging (--no-scavenge)");
    } else if (std::string program = find_sibling(o_.scavenger); program.empty()) {
      say(o_.scavenger + " is not installed; skipping the scavenge");
    } else {
      say("scavenging: " + program + " --prefix " + o_.settings.prefix);
      say(run_scavenge(program, o_.settings.prefix));
    }
    return code;
  }

  // Every line this loop prints names the command the user ran.
  void say(const std::string& msg) const {
    std::printf("%s: %s\n", tool_.c_str(), msg.c_str());
    std::fflush(stdout);
  }

  RunOptions o_;
  std::string tool_;
  io::Env& env_ = io::Env::posix();
  std::vector<std::string> nodes_;
  std::vector<std::string> excluded_;  // down hosts an unpinned srun leaves out
  std::vector<std::string> spares_;
  int min_nodes_ = 0;
};

}  // namespace

int run_loop(RunOptions options, const std::string& tool) {
  return Runner(std::move(options), tool).run();
}

}  // namespace scr::tools::run
