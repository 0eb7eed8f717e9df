// scr_prerun: SCR's first command of a job script. It checks that the
// prefix directory exists and can be written, makes its .scr directory,
// checks that the halt file (if any) can be read, and says which resource
// manager it found and whether a halt condition would stop the job at once.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "io/env.hpp"
#include "io/files.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_run/allocation.hpp"
#include "tools/scr_run/halt_check.hpp"
#include "tools/scr_run/node_plan.hpp"
#include "tools/scr_run/run_options.hpp"

namespace {

using namespace scr;
using namespace scr::tools;

const OptionSpec kOptions[] = {
    kJobPrefixOption,
    {"--verbose", OptionSpec::flag, "", "say what was found", "-v"},
    kHelpOption,
};

std::string help_text() {
  return "usage: scr_prerun [-p DIR] [-v]\n"
         "Prepare a job script's prefix directory for SCR++: check that it exists and is\n"
         "writable, create its .scr directory, and check that the halt file can be read.\n"
         "A halt condition is reported but kept (the user may have asked the job to stop).\n\n"
         "Options:\n" +
         options_help(kOptions) + "\nExit status: 0 ready; 1 usage error or a check failed.\n";
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_prerun");
  Args parsed;
  if (auto done = begin_command(cli, kOptions, argc, argv, help_text, &parsed)) return *done;
  const Args* args = &parsed;
  bool verbose = args->has("--verbose");
  auto settings = run::job_settings(args->value("--prefix").value_or(""));
  if (!settings) return cli.fail(1, settings.status().message());
  io::Env& env = io::Env::posix();
  const std::string& prefix = settings->prefix;
  if (Status st = check_dir(env, prefix); !st.ok()) return cli.fail(1, st.message());
  if (::access(prefix.c_str(), W_OK | X_OK) != 0)
    return cli.fail(1, "cannot write in the prefix directory " + prefix);
  if (Status st = io::make_dirs(env, rt::prefix_scr_dir(prefix)); !st.ok())
    return cli.fail(1, "cannot create " + rt::prefix_scr_dir(prefix) + ": " + st.message());
  // As SCR's: an earlier allocation's node count must not decide how many
  // nodes this one's relaunches need (the next SCR_Init records its own).
  (void)env.unlink(rt::prefix_nodes_path(prefix));  // SCR's ignores a failure too
  auto verdict = run::read_verdict(env, *settings);
  if (!verdict) return cli.fail(1, verdict.status().message() + " (delete it to start over)");
  if (!verdict->stop_reason.empty())
    cli.note("a halt condition holds (" + verdict->stop_reason + "); the job will stop at once " +
             "(scr_halt -l " + prefix + " lists it, scr_halt -r " + prefix + " clears it)");
  if (verbose) {
    auto alloc = run::find_allocation(*settings);
    if (!alloc) return cli.fail(1, alloc.status().message());
    std::printf("scr_prerun: prefix %s\n", prefix.c_str());
    std::printf("scr_prerun: resource manager %s%s\n",
                alloc->job.manager.empty() ? "none" : alloc->job.manager.c_str(),
                alloc->job.job_id.empty() ? "" : (", job " + alloc->job.job_id).c_str());
    std::printf("scr_prerun: %s %s\n", alloc->simulated ? "simulated nodes" : "nodes",
                alloc->nodes.empty() ? "(none known)" : run::join_nodes(alloc->nodes).c_str());
  }
  return 0;
}
