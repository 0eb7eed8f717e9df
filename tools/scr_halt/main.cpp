// scr_halt: ask a running (or the next) job in a prefix to stop, by editing
// the halt file <prefix>/.scr/halt.scr that the job's rank 0 reads at every
// SCR_Should_exit, SCR_Need_checkpoint and checkpoint. It reads and writes
// the file with the runtime's rt::read_halt/rt::write_halt (an atomic
// replace), so the job sees exactly what was written.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "io/files.hpp"
#include "runtime/halt.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/times.hpp"
#include "tools/scr_halt/halt_edit.hpp"
#include "tools/scr_halt/halt_time.hpp"
#include "tools/scr_halt/halt_words.hpp"

namespace {

using namespace scr;
using namespace scr::tools;
namespace h = scr::tools::halt;

// SCR 3.1's options with their one-letter forms, then SCR++'s additions.
const OptionSpec kOptions[] = {
    {"--checkpoints", OptionSpec::value, "N", "halt after N more checkpoints [CHECKPOINTS]", "-c"},
    {"--before", OptionSpec::value, "TIME",
     "halt before TIME, keeping --seconds for the last checkpoint [EXIT_BEFORE]", "-b"},
    {"--after", OptionSpec::value, "TIME", "halt once TIME has passed [EXIT_AFTER]", "-a"},
    {"--immediate", OptionSpec::optional_value, "REASON",
     "halt now, for REASON (default scr_halt) [EXIT_REASON]", "-i"},
    {"--seconds", OptionSpec::value, "N",
     "seconds kept before --before or the allocation end [HALT_SECONDS]", "-s"},
    {"--list", OptionSpec::flag, "", "print the conditions in words", "-l"},
    {"--unset-checkpoints", OptionSpec::flag, "", "remove CHECKPOINTS"},
    {"--unset-before", OptionSpec::flag, "", "remove EXIT_BEFORE"},
    {"--unset-after", OptionSpec::flag, "", "remove EXIT_AFTER"},
    {"--unset-seconds", OptionSpec::flag, "", "remove HALT_SECONDS"},
    {"--unset-reason", OptionSpec::flag, "", "remove EXIT_REASON (also --unset-immediate)"},
    {"--unset-immediate", OptionSpec::flag, "", "the same as --unset-reason"},
    {"--remove", OptionSpec::flag, "", "remove every condition, FINALIZED too (as SCR deletes the file)", "-r"},
    {"--verbose", OptionSpec::flag, "", "name each halt file before editing it", "-v"},
    {"--prefix", OptionSpec::value, "DIR", "a job's prefix directory (also as DIR arguments)", "-p"},
    {"--remove-finalized", OptionSpec::flag, "", "remove FINALIZED, the mark SCR_Finalize leaves"},
    {"--json", OptionSpec::flag, "", "print the conditions as JSON"},
    kHelpOption,
};

// Reason recorded when scr_halt is called without any option, as SCR does.
constexpr const char* kDefaultHaltReason = "JOB_HALTED";

std::string help_text() {
  return "usage: scr_halt [options] [DIR...]\n"
         "Set, list or clear the conditions under which a job using the prefix DIR stops\n"
         "(SCR_Should_exit returns 1). DIR defaults to --prefix, else $SCR_PREFIX, else the\n"
         "current directory; each DIR given is edited in turn. Without any option the job\n"
         "halts now (EXIT_REASON=JOB_HALTED), as with SCR. A running job sees changes at\n"
         "its next check; a job started later sees them at once. Conditions stay until\n"
         "removed. After a change the resulting conditions are printed, as with --list.\n\n"
         "Options:\n" +
         options_help(kOptions) +
         "\nTIME is epoch seconds, \"YYYY-MM-DD HH:MM[:SS]\" or YYYY-MM-DDTHH:MM:SS in local\n"
         "time, or relative to now: +SECONDS, +MINm, +Hh, +Dd. --remove runs before the\n"
         "conditions set in the same call, so -r -c 1 replaces everything with one condition.\n\n" +
         exit_codes_help() +
         "\nExamples:\n"
         "  scr_halt -c 1 /p/run1                          # stop after the next checkpoint\n"
         "  scr_halt --before \"2026-12-01 08:00\" --seconds 1800 /p/run1\n"
         "  scr_halt --immediate=\"node maintenance\" /p/run1\n"
         "  scr_halt -l /p/run1 /p/run2\n"
         "  scr_halt -r /p/run1\n";
}

// The changes asked for, or a usage error.
Result<h::Changes> changes_from(const Args& args, int64_t now) {
  h::Changes c;
  c.remove_all = args.has("--remove");
  if (args.has("--remove-finalized")) c.unset.insert(h::kFinalized);
  const std::pair<const char*, const char*> unsets[] = {{"--unset-checkpoints", h::kCheckpoints},
                                                        {"--unset-before", h::kBefore},
                                                        {"--unset-after", h::kAfter},
                                                        {"--unset-seconds", h::kSeconds},
                                                        {"--unset-reason", h::kReason},
                                                        {"--unset-immediate", h::kReason}};
  for (const auto& [opt, key] : unsets)
    if (args.has(opt)) c.unset.insert(key);
  if (auto v = args.value("--checkpoints")) {
    SCR_ASSIGN_OR_RETURN(int64_t n, int_value("--checkpoints", *v, 1));
    c.set[h::kCheckpoints] = std::to_string(n);
  }
  if (auto v = args.value("--seconds")) {
    SCR_ASSIGN_OR_RETURN(int64_t n, int_value("--seconds", *v, 0));
    c.set[h::kSeconds] = std::to_string(n);
  }
  for (const auto& [opt, key] :
       {std::pair{"--before", h::kBefore}, std::pair{"--after", h::kAfter}})
    if (auto v = args.value(opt)) {
      SCR_ASSIGN_OR_RETURN(int64_t t, h::parse_time(opt, *v, now));
      c.set[key] = std::to_string(t);
    }
  if (args.has("--immediate")) c.set[h::kReason] = args.value("--immediate").value_or("scr_halt");
  for (const auto& [key, value] : c.set)
    if (c.unset.count(key))
      return Error(Errc::invalid_argument, key + " is both set and unset in one call");
  return c;
}

void print_conditions(const std::string& file, bool exists, const kv::Tree& t, int64_t now,
                      bool json) {
  if (json)
    std::printf("%s\n", h::conditions_json(file, exists, t, now).dump().c_str());
  else
    std::fputs(h::conditions_text(file, exists, t, now).c_str(), stdout);
}

// Write the new conditions: an empty set removes the file, so "no file" and
// "no conditions" stay the same thing.
Status save(io::Env& env, const std::string& prefix, const kv::Tree& t) {
  if (t.empty()) return io::remove_file(env, rt::halt_path(prefix));
  return rt::write_halt(env, prefix, t);
}

// One prefix: apply the changes (or list), print the result; the exit code.
int edit_prefix(const Cli& cli, const std::string& prefix, const h::Changes& changes, bool json,
                bool verbose, int64_t now) {
  io::Env& env = io::Env::posix();
  if (Status st = check_dir(env, prefix); !st.ok()) return cli.fail(st);
  std::string file = rt::halt_path(prefix);
  if (verbose) std::printf("scr_halt: %s\n", file.c_str());
  // A running job counts CHECKPOINTS down in this file: hold its lock from
  // reading to writing so neither change is lost.
  std::optional<Result<io::FileLock>> lock;
  if (!changes.empty()) {
    lock.emplace(rt::lock_halt(env, prefix));
    if (!*lock) return cli.fail(exit_code::failed, lock->status().message());
  }
  bool exists = env.exists(file);
  auto current = rt::read_halt(env, prefix);
  if (!current)
    return cli.fail(
        exit_code::bad_data,
        current.status().message() + "; nothing was changed (delete the file to start over)");
  if (changes.empty()) {
    print_conditions(file, exists, *current, now, json);
    return exit_code::ok;
  }

  h::Edit edit = h::apply_changes(*current, changes);
  if (!edit.changed) {
    for (const auto& n : edit.no_ops) cli.note(n);
    std::printf("Nothing changed in %s.\n", file.c_str());
    return exit_code::not_found;
  }
  if (Status st = save(env, prefix, edit.tree); !st.ok())
    return cli.fail(exit_code::failed, "could not update " + file + ": " + st.message());
  for (const auto& n : edit.no_ops) cli.note(n);
  if (!json)
    for (const auto& d : edit.done) std::printf("%s\n", d.c_str());
  for (const char* key : {h::kAfter, h::kBefore})
    if (changes.set.count(key) && edit.tree.int_or(key, 0) <= now)
      cli.note(std::string(key) + " is already past: a job stops at its next check");
  print_conditions(file, !edit.tree.empty(), edit.tree, now, json);
  return exit_code::ok;
}

}  // namespace

int main(int argc, char** argv) {
  Cli cli("scr_halt");
  auto args = parse_args(kOptions, argc, argv);
  if (!args) return cli.usage_error(args.status().message());
  if (args->has("--help")) {
    std::fputs(help_text().c_str(), stdout);
    return exit_code::ok;
  }
  int64_t now = now_seconds();
  auto changes = changes_from(*args, now);
  if (!changes) return cli.usage_error(changes.status().message());
  bool list = args->has("--list") || args->has("--json");
  // SCR's scr_halt without a condition halts the job now.
  if (changes->empty() && !list) changes->set[h::kReason] = kDefaultHaltReason;

  std::vector<std::string> prefixes;
  if (auto p = args->value("--prefix")) prefixes.push_back(absolute_path(*p));
  for (const auto& d : args->positional()) prefixes.push_back(absolute_path(d));
  if (prefixes.empty()) prefixes.push_back(absolute_path(default_prefix()));
  if (prefixes.size() > 1 && args->has("--json"))
    return cli.usage_error("--json prints one directory; give one DIR");
  int code = exit_code::ok;
  for (const auto& prefix : prefixes)
    code = std::max(code, edit_prefix(cli, prefix, *changes, args->has("--json"),
                                      args->has("--verbose"), now));
  return code;
}
