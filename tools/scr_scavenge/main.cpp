// scr_scavenge: after the last run of a job, save in the prefix the cached
// datasets that were never flushed (the newest checkpoint and every output
// dataset), rebuilding the files of lost nodes from redundancy data, the
// way SCR's scavenge at the end of a batch script does. See docs/tools.md.
#include <cstdio>

#include "io/env.hpp"
#include "tools/common/cli.hpp"
#include "tools/scr_scavenge/agent.hpp"
#include "tools/scr_scavenge/options.hpp"
#include "tools/scr_scavenge/report.hpp"
#include "tools/scr_scavenge/run.hpp"

int main(int argc, char** argv) {
  using namespace scr::tools;
  // On each host of a cluster, the scavenge started there by another.
  if (scavenge::is_agent_call(argc, argv)) return scavenge::run_agent(argc, argv);
  Cli cli("scr_scavenge");
  scr::io::Env& env = scr::io::Env::posix();
  auto parsed = scavenge::parse_options(env, argc, argv);
  if (!parsed) {
    if (parsed.status().code() == scr::Errc::invalid_argument)
      return cli.usage_error(parsed.status().message());
    return cli.fail(parsed.status());
  }
  if (parsed->help) {
    std::fputs(scavenge::help_text().c_str(), stdout);
    return exit_code::ok;
  }
  const scavenge::Options& o = parsed->options;
  auto report = scavenge::run_scavenge(env, o);
  if (!report) return cli.fail(report.status());
  if (o.json)
    std::printf("%s\n", scavenge::report_json(o, *report).c_str());
  else
    scavenge::print_report(cli, o, *report);
  return scavenge::exit_code_of(*report);
}
