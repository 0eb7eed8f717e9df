#include "tools/common/cli.hpp"

#include <cstdio>

namespace scr::tools {

std::string exit_codes_help() {
  return "Exit status:\n"
         "  0  success\n"
         "  1  usage error (unknown option, missing or malformed value)\n"
         "  2  not found (no such directory, not a prefix, unknown dataset) or nothing to do\n"
         "     (scr_index and scr_halt: only with --strict, when the change asked for is\n"
         "     already in place; without it they exit 0, as SCR's do)\n"
         "  3  damaged data (unreadable metadata, files that fail verification)\n"
         "  4  refused: the request conflicts with what was found\n"
         "  5  an operation failed (I/O error)\n";
}

int exit_code_for(const Status& status) {
  switch (status.code()) {
    case Errc::ok:
      return exit_code::ok;
    case Errc::not_found:
      return exit_code::not_found;
    case Errc::corrupt:
      return exit_code::bad_data;
    case Errc::invalid_argument:
      return exit_code::usage;
    default:
      return exit_code::failed;
  }
}

int Cli::fail(int code, const std::string& message) const {
  std::fprintf(stderr, "%s: error: %s\n", tool_.c_str(), message.c_str());
  return code;
}

int Cli::usage_error(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n", tool_.c_str(),
               message.c_str(), tool_.c_str());
  return exit_code::usage;
}

std::optional<int> begin_command(const Cli& cli, std::span<const OptionSpec> specs, int argc,
                                 const char* const* argv, std::string (*help)(), Args* args,
                                 bool positional_ok, int usage_code) {
  auto parsed = parse_args(specs, argc, argv);
  if (!parsed) {
    cli.usage_error(parsed.status().message());
    return usage_code;
  }
  if (parsed->has("--help")) {
    std::fputs(help().c_str(), stdout);
    return exit_code::ok;
  }
  if (!positional_ok && !parsed->positional().empty()) {
    cli.usage_error("unexpected argument '" + parsed->positional().front() + "'");
    return usage_code;
  }
  *args = std::move(parsed).value();
  return std::nullopt;
}

void Cli::note(const std::string& message) const {
  std::fprintf(stderr, "%s: note: %s\n", tool_.c_str(), message.c_str());
}

int Cli::unchanged(const std::string& message, bool strict) const {
  note(message + "; nothing changed");
  return strict ? exit_code::unchanged : exit_code::ok;
}

}  // namespace scr::tools
