// Command-line options of the operator tools. Each tool declares its options
// in a table; the same table drives parsing and the option list of --help, so
// the two never disagree.
//
//   --name            a flag
//   --name VALUE      also --name=VALUE
//   --name [VALUE]    the next word is the value unless it starts with '-'
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
};

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
  friend Result<Args> parse_args(std::span<const OptionSpec>, int, const char* const*);
  std::vector<std::pair<std::string, std::string>> given_;
  std::vector<std::string> positional_;
  bool separator_ = false;
};

// Unknown options and missing values are Errc::invalid_argument errors whose
// message names the option.
Result<Args> parse_args(std::span<const OptionSpec> specs, int argc, const char* const* argv);

// "  --prefix DIR       the prefix directory" lines, aligned.
std::string options_help(std::span<const OptionSpec> specs);

// Typed values with messages naming the option: "--checkpoints: 'x' is not a
// whole number".
Result<int64_t> int_value(std::string_view option, std::string_view text, int64_t min,
                          int64_t max = INT64_MAX);

}  // namespace scr::tools
