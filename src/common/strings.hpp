// Small string helpers shared by the config parser, tools and runtime.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace scr::str {

std::string trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep, bool skip_empty = true);
// Split on runs of blanks (space/tab).
std::vector<std::string> split_ws(std::string_view s);
std::string to_upper(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);

// Strict integer parse: the whole string must be a base-10 integer in range.
Result<int64_t> parse_int(std::string_view s);
// Byte counts with optional suffix: 4096, 64KB, 1MB, 2GiB, 1T (binary multiples).
Result<uint64_t> parse_bytes(std::string_view s);
// Seconds as a non-negative decimal number ("1.5").
Result<double> parse_double(std::string_view s);
// 0/1, yes/no, true/false, on/off.
Result<bool> parse_bool(std::string_view s);

std::string format_bytes(uint64_t bytes);  // "1.5 MiB"
// `s` with each control character (below 0x20, and 0x7f) as \xNN, for a
// name from a file printed on a terminal or in a one-line-per-entry
// listing: it can fake no line and send no escape sequence.
std::string printable(std::string_view s);
// Numbers joined: {2, 5} -> "2, 5" (sep ", ").
std::string join_ints(const std::vector<int>& values, std::string_view sep = ", ");

}  // namespace scr::str
