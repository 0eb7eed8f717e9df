// scr_run: run an SCR++ job and relaunch it within the allocation when a run
// fails, the way SCR's scr_srun does: unless the job asked to stop, find the
// nodes that are down, put spares in their place and run again, up to
// SCR_RUNS runs and while SCR_MIN_NODES nodes remain; at the end hand over to
// scr_scavenge. Every decision is printed in plain words.
#include <cstdio>

#include "tools/common/cli.hpp"
#include "tools/scr_run/launcher_mode.hpp"
#include "tools/scr_run/run_options.hpp"
#include "tools/scr_run/runner.hpp"

int main(int argc, char** argv) {
  using namespace scr::tools;
  using namespace scr::tools::run;
  Cli cli("scr_run");
  // SCR's form, `scr_run LAUNCHER [launcher args] PROGRAM [args]`, as its job
  // scripts write it: the launcher commands' loop (scr_srun, ...). SCR++'s
  // own form starts with an option or `--`, never with a launcher's name.
  if (argc > 1) {
    std::string launcher = scr_run_launcher(argv[1]);
    if (launcher == "srun" || launcher == "mpirun" || launcher == "flux")
      return launcher_main(launcher, argc - 1, argv + 1, "scr_run");
    if (!launcher.empty()) {
      cli.usage_error("launcher '" + launcher + "' is not supported: srun, mpirun or flux");
      return kUsage;
    }
  }
  auto parsed = parse_run_options(argc, argv);
  if (!parsed) {
    cli.usage_error(parsed.status().message());
    return kUsage;
  }
  if (parsed->help) {
    std::fputs(run_help().c_str(), stdout);
    return kFinished;
  }
  return run_loop(std::move(parsed->options));
}
