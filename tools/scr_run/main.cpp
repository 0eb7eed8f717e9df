// scr_run: run an SCR++ job and relaunch it within the allocation when a run
// fails, the way SCR's scr_srun does: unless the job asked to stop, find the
// nodes that are down, put spares in their place and run again, up to
// SCR_RUNS runs and while SCR_MIN_NODES nodes remain; at the end hand over to
// scr_scavenge. Every decision is printed in plain words.
#include <cstdio>

#include "tools/common/cli.hpp"
#include "tools/scr_run/run_options.hpp"
#include "tools/scr_run/runner.hpp"

int main(int argc, char** argv) {
  using namespace scr::tools;
  using namespace scr::tools::run;
  Cli cli("scr_run");
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
