#include "common/strings.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace scr::str {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split(std::string_view s, char sep, bool skip_empty) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) pos = s.size();
    std::string part(s.substr(start, pos - start));
    if (!skip_empty || !part.empty()) out.push_back(std::move(part));
    start = pos + 1;
  }
  return out;
}

std::vector<std::string> split_ws(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Result<int64_t> parse_int(std::string_view s) {
  std::string t = trim(s);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
    return Error(Errc::invalid_argument, "'" + t + "' is not an integer");
  return v;
}

Result<uint64_t> parse_bytes(std::string_view s) {
  std::string t = trim(s);
  // The number is digits with at most one '.', and at least one digit: "1.2.3"
  // or "." must not slip through strtod as 1.2 or 0.
  size_t i = 0, digits = 0;
  bool dot = false;
  for (; i < t.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(t[i]))) ++digits;
    else if (t[i] == '.' && !dot) dot = true;
    else break;
  }
  if (digits == 0) return Error(Errc::invalid_argument, "'" + t + "' is not a byte count");
  double num = std::strtod(t.substr(0, i).c_str(), nullptr);
  std::string unit = to_upper(trim(t.substr(i)));
  double mult = 1;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "K" || unit == "KB" || unit == "KIB") mult = 1024.0;
  else if (unit == "M" || unit == "MB" || unit == "MIB") mult = 1024.0 * 1024;
  else if (unit == "G" || unit == "GB" || unit == "GIB") mult = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "TB" || unit == "TIB") mult = 1024.0 * 1024 * 1024 * 1024;
  else return Error(Errc::invalid_argument, "'" + t + "' has an unknown size unit '" + unit + "'");
  double v = num * mult;
  if (!std::isfinite(v) || v < 0 || v > 9.0e18)
    return Error(Errc::invalid_argument, "'" + t + "' is out of range");
  return static_cast<uint64_t>(v);
}

Result<double> parse_double(std::string_view s) {
  std::string t = trim(s);
  if (t.empty()) return Error(Errc::invalid_argument, "empty number");
  // strtod also takes hex ("0x10"), "inf" and "nan"; only plain decimals are
  // numbers of seconds.
  if (t.find_first_not_of("0123456789.eE+-") != std::string::npos)
    return Error(Errc::invalid_argument, "'" + t + "' is not a decimal number");
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (errno != 0 || end != t.c_str() + t.size() || !std::isfinite(v))
    return Error(Errc::invalid_argument, "'" + t + "' is not a number");
  if (v < 0) return Error(Errc::invalid_argument, "'" + t + "' is negative");
  return v;
}

Result<bool> parse_bool(std::string_view s) {
  std::string t = to_upper(trim(s));
  if (t == "1" || t == "YES" || t == "TRUE" || t == "ON") return true;
  if (t == "0" || t == "NO" || t == "FALSE" || t == "OFF") return false;
  return Error(Errc::invalid_argument, "'" + std::string(s) + "' is not 0 or 1");
}

std::string join_ints(const std::vector<int>& values, std::string_view sep) {
  std::string out;
  for (int v : values) {
    if (!out.empty()) out += sep;
    out += std::to_string(v);
  }
  return out;
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  // From KiB up, "%.1f" rounds 1023.95.. to "1024.0"; step up a unit instead.
  while (u < 4 && (v >= 1024 || (u > 0 && v >= 1023.95))) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    char buf[5];
    std::snprintf(buf, sizeof buf, "\\x%02x", u);
    out += buf;
  }
  return out;
}

}  // namespace scr::str
