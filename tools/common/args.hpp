// Command-line options of the operator tools. Each tool declares its options
// in a table; the same table drives parsing and the option list of --help, so
// the two never disagree.
//
//   --name            a flag
//   --name VALUE      also --name=VALUE
//   --name[=VALUE]    a flag that takes a value only as --name=VALUE (the
//                     next word stays positional, as SCR's commands expect)
//
// An option may also have a one-letter form, as SCR's commands do
// ("-c" for "--checkpoints"): "-c 1" or "-c1"; flags may be bundled ("-lv").
// Either spelling is recorded under the long name, so callers ask for
// "--checkpoints" whichever was typed.
//
// Words that are not options are positional; after "--" every word is
// positional (scr_run passes them on to the launcher untouched).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace scr::tools {

struct OptionSpec {
  enum Kind { flag, value, optional_value };
  std::string_view name;  // "--prefix"
  Kind kind = flag;
  std::string_view value_name;  // "DIR", shown in --help
  std::string_view help;        // one line
  std::string_view short_name;  // "-c", or "" when there is none
};

// Options several commands share, spelled as SCR's commands spell them.
inline constexpr OptionSpec kHelpOption{"--help", OptionSpec::flag, "", "show this help", "-h"};
// SCR++'s own: SCR's scr_index and scr_halt exit 0 when nothing changed.
inline constexpr OptionSpec kStrictOption{
    "--strict", OptionSpec::flag, "", "exit 2 when the request changes nothing (else 0, as SCR)"};
inline constexpr OptionSpec kJobPrefixOption{
    "--prefix", OptionSpec::value, "DIR", "the job's prefix (default: $SCR_PREFIX, else .)", "-p"};
inline constexpr OptionSpec kJobLauncherOption{"--joblauncher", OptionSpec::value, "LAUNCHER",
                                               "srun, mpirun, flux, ... (accepted; not needed)",
                                               "-j"};

class Args {
 public:
  bool has(std::string_view name) const;
  // The value of the last occurrence; nullopt when absent or given without one.
  std::optional<std::string> value(std::string_view name) const;
  // Options in the order given, with their values ("" for flags).
  const std::vector<std::pair<std::string, std::string>>& given() const { return given_; }
  const std::vector<std::string>& positional() const { return positional_; }
  // True when "--" separated the positional words.
  bool saw_separator() const { return separator_; }

 private:
  friend Result<Args> parse_args(std::span<const OptionSpec>, int, const char* const*, bool);
  std::vector<std::pair<std::string, std::string>> given_;
  std::vector<std::string> positional_;
  bool separator_ = false;
};

// Unknown options and missing values are Errc::invalid_argument errors whose
// message names the option. With `stop_at_positional`, the first positional
// word ends the options and it and every word after it are positional (for
// commands whose remaining words belong to another program, as scr_srun's
// belong to srun).
Result<Args> parse_args(std::span<const OptionSpec> specs, int argc, const char* const* argv,
                        bool stop_at_positional = false);

// "  -p, --prefix DIR   the prefix directory" lines, aligned.
std::string options_help(std::span<const OptionSpec> specs);

// Typed values with messages naming the option: "--checkpoints: 'x' is not a
// whole number".
Result<int64_t> int_value(std::string_view option, std::string_view text, int64_t min,
                          int64_t max = INT64_MAX);

}  // namespace scr::tools
