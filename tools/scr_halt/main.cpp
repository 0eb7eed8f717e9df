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
#include "runtime/prefix/halt_file.hpp"
#include "tools/common/args.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/prefix_dir.hpp"
#include "tools/common/times.hpp"
#include "tools/scr_halt/halt_edit.hpp"
#include "tools/scr_halt/halt_settings.hpp"
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
    {"--list", OptionSpec::flag, "", "print the conditions as SCR does", "-l"},
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
    {"--details", OptionSpec::flag, "",
     "print the conditions in words, and whether a job would stop now"},
    {"--json", OptionSpec::flag, "", "print the conditions as JSON"},
    kStrictOption,
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
         "removed. After a change the resulting conditions are printed, as with --list\n"
         "(SCR's layout: \"Halt file settings for FILE:\" and \"  Key: value\" lines),\n"
         "--details or --json. A request that changes nothing says so on stderr.\n\n"
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

// How the conditions are printed: SCR's layout for SCR's spellings, SCR++'s
// words (--details) or JSON (--json).
enum class Style { scr, details, json };

// One DIR: the absolute prefix worked on, and its halt file as SCR names it
// in its listing (DIR as given, joined with .scr/halt.scr).
struct Target {
  std::string prefix;
  std::string shown_file;
};

void print_conditions(Style style, const std::string& file, const std::string& shown_file,
                      bool exists, const kv::Tree& t, int64_t now) {
  if (style == Style::json)
    std::printf("%s\n", h::conditions_json(file, exists, t, now).dump().c_str());
  else if (style == Style::details)
    std::fputs(h::conditions_text(file, exists, t, now).c_str(), stdout);
  else
    std::fputs(h::scr_settings_text(shown_file, t).c_str(), stdout);
}

// What a call that edits prints: in SCR's layout the changes asked for, then
// the conditions; nothing for --remove alone, as SCR deletes the file
// silently. SCR++'s layouts print the conditions.
void print_after_edit(Style style, const h::Changes& changes, const std::string& file,
                      const std::string& shown_file, const kv::Tree& t, int64_t now) {
  if (style == Style::scr) {
    if (changes.remove_all && changes.set.empty()) return;
    std::fputs(h::scr_changes_text(changes).c_str(), stdout);
  }
  print_conditions(style, file, shown_file, !t.empty(), t, now);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// Write the new conditions: an empty set removes the file, so "no file" and
// "no conditions" stay the same thing.
Status save(io::Env& env, const std::string& prefix, const kv::Tree& t) {
  if (t.empty()) return io::remove_file(env, rt::halt_path(prefix));
  return rt::write_halt(env, prefix, t);
}

struct Mode {
  Style style = Style::scr;
  bool verbose = false;
  bool strict = false;
};

// One prefix: apply the changes (or list), print the result; the exit code.
int edit_prefix(const Cli& cli, const Target& target, const h::Changes& changes, const Mode& mode,
                int64_t now) {
  io::Env& env = io::Env::posix();
  const std::string& prefix = target.prefix;
  if (Status st = check_dir(env, prefix); !st.ok()) return cli.fail(st);
  std::string file = rt::halt_path(prefix);
  if (mode.verbose) std::printf("scr_halt: %s\n", file.c_str());
  // A running job counts CHECKPOINTS down in this file: hold its lock from
  // reading to writing so neither change is lost.
  std::optional<Result<rt::HaltLock>> lock;
  if (!changes.empty()) {
    lock.emplace(rt::lock_halt(env, prefix));
    if (!*lock) return cli.fail(exit_code::failed, lock->status().message());
  }
  bool exists = env.exists(file);
  auto current = rt::read_halt(env, prefix);
  // A damaged file goes with --remove, as SCR's deletes whatever it holds;
  // anything else leaves it. A file that cannot be read (permissions, I/O)
  // may hold a real condition: no advice to delete it.
  bool damaged = !current && current.status().code() == Errc::corrupt;
  bool replace_damaged = damaged && changes.remove_all;
  if (replace_damaged) {
    cli.note(current.status().message() + "; removing it");
    current = kv::Tree();
  }
  if (!current)
    return damaged ? cli.fail(exit_code::bad_data, current.status().message() +
                                                       "; nothing was changed (scr_halt --remove deletes it)")
                   : cli.fail(exit_code::failed, current.status().message() + "; nothing was changed");
  if (changes.empty()) {
    print_conditions(mode.style, file, target.shown_file, exists, *current, now);
    return exit_code::ok;
  }

  h::Edit edit = h::apply_changes(*current, changes);
  if (!edit.changed && !replace_damaged) {
    // SCR rewrites the file with what it held and exits 0.
    print_after_edit(mode.style, changes, file, target.shown_file, *current, now);
    return cli.unchanged(file + ": " + joined(edit.no_ops), mode.strict);
  }
  if (Status st = save(env, prefix, edit.tree); !st.ok())
    return cli.fail(exit_code::failed, "could not update " + file + ": " + st.message());
  for (const auto& n : edit.no_ops) cli.note(n);
  if (mode.style == Style::details)
    for (const auto& d : edit.done) std::printf("%s\n", d.c_str());
  for (const char* key : {h::kAfter, h::kBefore})
    if (changes.set.count(key) && edit.tree.int_or(key, 0) <= now)
      cli.note(std::string(key) + " is already past: a job stops at its next check");
  print_after_edit(mode.style, changes, file, target.shown_file, edit.tree, now);
  return exit_code::ok;
}

// SCR names the halt file after DIR as typed (os.path.join(DIR, ".scr",
// "halt.scr")), and after the current directory when none is given.
Target target_of(const std::string& given) {
  std::string shown = given + (given.ends_with('/') ? "" : "/") + ".scr/halt.scr";
  return {absolute_path(given), std::move(shown)};
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
  if (args->has("--json") && args->has("--details"))
    return cli.usage_error("choose --details or --json");
  Mode mode;
  mode.style = args->has("--json")      ? Style::json
               : args->has("--details") ? Style::details
                                        : Style::scr;
  mode.verbose = args->has("--verbose");
  mode.strict = args->has("--strict");
  bool list = args->has("--list") || mode.style != Style::scr;
  // SCR's scr_halt without a condition halts the job now.
  if (changes->empty() && !list) changes->set[h::kReason] = kDefaultHaltReason;

  std::vector<Target> targets;
  if (auto p = args->value("--prefix")) targets.push_back(target_of(*p));
  for (const auto& d : args->positional()) targets.push_back(target_of(d));
  if (targets.empty()) targets.push_back(target_of(default_prefix()));
  if (targets.size() > 1 && mode.style == Style::json)
    return cli.usage_error("--json prints one directory; give one DIR");
  int code = exit_code::ok;
  for (const auto& target : targets)
    code = std::max(code, edit_prefix(cli, target, *changes, mode, now));
  return code;
}
