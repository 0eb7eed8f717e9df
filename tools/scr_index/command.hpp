// scr_index subcommands. Each is one option (--current NAME, --drop NAME,
// ...) implemented in its own file and listed in the table in commands.cpp;
// main.cpp builds the option list and --help from that table, so adding a
// subcommand is one file plus one table line.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "io/env.hpp"
#include "tools/common/cli.hpp"

namespace scr::tools::index_cmd {

struct Request {
  io::Env& env;
  const Cli& cli;
  std::string prefix;  // absolute
  std::string value;   // the option's value (NAME), empty for a flag
  bool json = false;
  bool details = false;  // --details: SCR++'s listing instead of SCR's
  bool strict = false;   // --strict: exit 2, not 0, when nothing changed
};

struct Command {
  std::string_view option;      // "--current"; "--list" for the default (listing)
  std::string_view value_name;  // "NAME", or "" for a flag
  std::string_view help;
  bool json;                   // accepts --json and --details (the listing)
  int (*run)(const Request&);  // returns the exit code
  std::string_view short_name;  // SCR's one-letter form ("-c"), or ""
};

std::span<const Command> commands();

int list_datasets(const Request& req);
int set_current(const Request& req);
int drop_dataset(const Request& req);
int drop_after(const Request& req);
int add_dataset(const Request& req);
int build_dataset(const Request& req);

}  // namespace scr::tools::index_cmd
