// scr_postrun: SCR's last command of a job script: after the final run,
// save the cached datasets that were never flushed, by running scr_scavenge
// (found beside scr_postrun, else on PATH) for the prefix with the job's
// environment (SCR_SIM_NODES, SCR_CACHE_BASE, SCR_CNTL_BASE, ...).
#include <cstdio>
#include <string>
#include <vector>

#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_run/launch.hpp"
#include "tools/scr_run/scavenge_hook.hpp"

namespace {

using namespace scr::tools;

const OptionSpec kOptions[] = {
    kJobLauncherOption,
    kJobPrefixOption,
    {"--verbose", OptionSpec::flag, "", "also print scr_scavenge's command line", "-v"},
    kHelpOption,
};

std::string help_text() {
  return "usage: scr_postrun [-j LAUNCHER] [-p DIR] [-v]\n"
         "After the last run of a job script, save in the prefix the cached datasets that\n"
         "were never flushed (scr_scavenge --prefix DIR: the newest checkpoint and every\n"
         "output dataset, rebuilding lost nodes' files from redundancy data).\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nExit status: 0 saved, or nothing needed saving; 1 usage error, scr_scavenge\n"
         "missing, or a dataset could not be saved (scr_scavenge's message says why).\n";
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_postrun");
  Args parsed;
  if (auto done = begin_command(cli, kOptions, argc, argv, help_text, &parsed)) return *done;
  const Args* args = &parsed;
  // SCR switched off (as scr_run's launchers read it): nothing was cached.
  if (run::scr_disabled_by_environment()) {
    std::printf("scr_postrun: SCR_ENABLE=0, nothing to scavenge\n");
    return 0;
  }
  std::string prefix = absolute_path(args->value("--prefix").value_or(default_prefix()));
  // A prefix that is not there (mistyped, or not mounted) is no "nothing to
  // scavenge": whatever the caches hold would go unsaved with the job script
  // told all is well.
  if (scr::Status there = check_dir(scr::io::Env::posix(), prefix); !there.ok())
    return cli.fail(1, "prefix: " + there.message() + "; nothing was scavenged");
  std::string program = run::find_scavenge();
  if (program.empty()) return cli.fail(1, "scr_scavenge is not installed beside scr_postrun or on PATH");
  std::vector<std::string> argv_s{program, "--prefix", prefix};
  if (args->has("--verbose")) std::printf("scr_postrun: %s --prefix %s\n", program.c_str(), prefix.c_str());
  std::fflush(stdout);
  run::Outcome o = run::run_program(argv_s);
  if (!o.started) return cli.fail(1, o.error);
  // scr_scavenge's codes (docs/tools.md): 0 saved, 2 nothing to do.
  if (o.exit_code == 0) {
    std::printf("scr_postrun: scavenge finished\n");
    return 0;
  }
  if (o.exit_code == 2) {
    std::printf("scr_postrun: nothing to scavenge\n");
    return 0;
  }
  return cli.fail(1, "scr_scavenge failed (" + o.describe() + ")");
}
