// scr_index: list the datasets of a prefix directory and edit its index
// (which checkpoint a restart loads, which datasets it knows). Every change
// goes through the runtime's PrefixIndex and is saved atomically; a damaged
// index is reported and never rewritten.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/scr_index/command.hpp"

namespace {

using namespace scr::tools;
using index_cmd::Command;

std::vector<OptionSpec> option_table() {
  std::vector<OptionSpec> specs;
  for (const Command& c : index_cmd::commands())
    specs.push_back({c.option, c.value_name.empty() ? OptionSpec::flag : OptionSpec::value,
                     c.value_name, c.help, c.short_name});
  specs.push_back({"--prefix", OptionSpec::value, "DIR",
                   "the prefix directory (default: $SCR_PREFIX, else .)", "-p"});
  specs.push_back({"--json", OptionSpec::flag, "", "print the listing as JSON"});
  specs.push_back({"--details", OptionSpec::flag, "",
                   "list with SCR++'s columns, output datasets and what a restart loads"});
  specs.push_back(kStrictOption);
  specs.push_back({"--help", OptionSpec::flag, "", "show this help", "-h"});
  return specs;
}

std::string help_text(const std::vector<OptionSpec>& specs) {
  return "usage: scr_index [-p DIR] [-l] [--details | --json]\n"
         "       scr_index [-p DIR] [--strict] -c NAME | -a NAME|ID | -b ID|NAME | -r|--drop NAME | --drop-after NAME\n"
         "List the datasets in the index of an SCR++ prefix directory (.scr/index.scr), or\n"
         "change it: one change per call. A change is saved atomically; a damaged index is\n"
         "reported and left as it is. Change the index while no job runs in the prefix.\n\n"
         "Options:\n" +
         options_help(specs) +
         "\nThe listing is SCR's: one checkpoint per line, newest first, with its id\n"
         "(DSET), VALID (complete and not failed: YES/NO), FLUSHED (when its flush\n"
         "finished, YYYY-MM-DDTHH:MM:SS), a * under CUR for CURRENT, and its NAME.\n"
         "--details adds SCR++'s columns (TYPE, FAILED, SIZE, CREATED), output datasets\n"
         "and which checkpoint a restart from the prefix would load.\n\n" +
         exit_codes_help() +
         "\nExamples:\n"
         "  scr_index --prefix /p/run1\n"
         "  scr_index --prefix /p/run1 --current step.20     # next restart loads step.20\n"
         "  scr_index --prefix /p/run1 --drop-after step.20  # forget everything newer\n";
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_index");
  auto specs = option_table();
  auto args = parse_args(specs, argc, argv);
  if (!args) return cli.usage_error(args.status().message());
  if (args->has("--help")) {
    std::fputs(help_text(specs).c_str(), stdout);
    return exit_code::ok;
  }
  if (!args->positional().empty())
    return cli.usage_error("unexpected argument '" + args->positional().front() + "'");

  const Command* chosen = nullptr;
  const Command& listing = index_cmd::commands().front();
  for (const Command& c : index_cmd::commands()) {
    if (&c == &listing || !args->has(c.option)) continue;
    if (chosen)
      return cli.usage_error("choose one change per call (" + std::string(chosen->option) +
                             " and " + std::string(c.option) + " were both given)");
    chosen = &c;
  }
  if (!chosen) chosen = &listing;
  bool json = args->has("--json");
  bool details = args->has("--details");
  for (const char* listing_only : {"--json", "--details"})
    if (args->has(listing_only) && !chosen->json)
      return cli.usage_error(std::string(listing_only) + " applies to the listing, not to " +
                             std::string(chosen->option));

  index_cmd::Request req{
      scr::io::Env::posix(), cli, absolute_path(args->value("--prefix").value_or(default_prefix())),
      chosen == &listing ? "" : args->value(chosen->option).value_or(""), json, details,
      args->has("--strict")};
  // Changes wait for no job: one that holds the prefix is named instead.
  if (chosen != &listing && has_index(req.env, req.prefix)) {
    auto held = lock_prefix(req.env, req.prefix);
    if (!held)
      return cli.fail(held.status().code() == scr::Errc::bad_state ? exit_code::refused : exit_code::failed,
                      held.status().message());
    return chosen->run(req);  // the lock in `held` lasts until the change is saved
  }
  return chosen->run(req);
}
