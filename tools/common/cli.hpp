// What every operator tool shares at its boundary: the exit codes scripts
// test, and how problems are reported (one line on stderr naming the tool).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "common/status.hpp"
#include "tools/common/args.hpp"

namespace scr::tools {

// Exit codes, the same for every tool (scr_inspect keeps its own, older set;
// see its --help).
namespace exit_code {
inline constexpr int ok = 0;
inline constexpr int usage = 1;      // bad options or arguments
inline constexpr int not_found = 2;  // no such directory, prefix or dataset; nothing to do
inline constexpr int unchanged = 2;  // with --strict: the change asked for was already in place
inline constexpr int bad_data = 3;   // damaged metadata, files that fail verification
inline constexpr int refused = 4;    // the request conflicts with the state it finds
inline constexpr int failed = 5;     // an operation failed (I/O), or the job did not finish
}  // namespace exit_code

// The "Exit status:" paragraph of --help for the codes above.
std::string exit_codes_help();

// Maps a library error to an exit code: not_found -> 2, corrupt -> 3,
// invalid_argument -> 1, anything else -> 5.
int exit_code_for(const Status& status);

class Cli;

// The start of a command's main(): parse argv with `specs`. Returns the exit
// code to end with -- 0 after printing `help()` for --help (an option every
// table has), `usage_code` after reporting a parse error or, unless
// `positional_ok`, a stray argument -- or nullopt with *args filled in.
std::optional<int> begin_command(const Cli& cli, std::span<const OptionSpec> specs, int argc,
                                 const char* const* argv, std::string (*help)(), Args* args,
                                 bool positional_ok = false, int usage_code = exit_code::usage);

class Cli {
 public:
  explicit Cli(std::string tool) : tool_(std::move(tool)) {}
  const std::string& tool() const { return tool_; }

  // "<tool>: error: <message>" on stderr; returns code.
  int fail(int code, const std::string& message) const;
  int fail(const Status& status) const { return fail(exit_code_for(status), status.message()); }
  // "<tool>: <message>" plus a pointer to --help; returns exit_code::usage.
  int usage_error(const std::string& message) const;
  // "<tool>: note: <message>" on stderr, for things worth knowing that do not
  // change the outcome.
  void note(const std::string& message) const;
  // A request that changed nothing: "<tool>: note: <message>; nothing
  // changed" on stderr; returns 0 as SCR's commands exit, or
  // exit_code::unchanged under SCR++'s --strict.
  int unchanged(const std::string& message, bool strict) const;

 private:
  std::string tool_;
};

}  // namespace scr::tools
