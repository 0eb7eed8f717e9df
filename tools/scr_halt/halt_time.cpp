#include "tools/scr_halt/halt_time.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "common/strings.hpp"

namespace scr::tools::halt {
namespace {

Status bad_time(std::string_view option, std::string_view text, const std::string& why = "") {
  return Error(Errc::invalid_argument,
               std::string(option) + ": '" + std::string(text) + "' is not a time" +
                   (why.empty() ? "" : " (" + why + ")") +
                   "; use epoch seconds, \"YYYY-MM-DD HH:MM[:SS]\" (local time), a time of day "
                   "as SCR's examples write it (\"12:00pm\", \"8:30am tomorrow\", \"17:45\"), or "
                   "+SECONDS, +MINm, +Hh, +Dd from now");
}

Result<int64_t> relative(std::string_view option, std::string_view text, int64_t now) {
  std::string_view body = text.substr(1);
  int64_t unit = 1;
  if (!body.empty()) {
    switch (body.back()) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      default:
        unit = 0;
    }
    if (unit != 0)
      body.remove_suffix(1);
    else
      unit = 1;
  }
  auto n = str::parse_int(body);
  if (!n || *n < 0) return bad_time(option, text);
  if (*n > (INT64_MAX - now) / unit) return bad_time(option, text, "too far ahead");
  return now + *n * unit;
}

Result<int64_t> calendar(std::string_view option, std::string_view text) {
  std::string s(text);
  std::tm tm{};
  int consumed = 0;
  char sep = 0;
  int n = std::sscanf(s.c_str(), "%4d-%2d-%2d%c%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                      &sep, &tm.tm_hour, &tm.tm_min, &consumed);
  if (n != 6 || (sep != ' ' && sep != 'T')) return bad_time(option, text);
  if (static_cast<size_t>(consumed) < s.size()) {
    int more = 0;
    if (std::sscanf(s.c_str() + consumed, ":%2d%n", &tm.tm_sec, &more) != 1 ||
        static_cast<size_t>(consumed + more) != s.size())
      return bad_time(option, text);
  }
  std::tm want = tm;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_isdst = -1;
  std::time_t t = std::mktime(&tm);
  // mktime normalises Feb 30 to Mar 2; such a date was a typo.
  if (t == static_cast<std::time_t>(-1) || tm.tm_mday != want.tm_mday ||
      tm.tm_mon + 1 != want.tm_mon || tm.tm_min != want.tm_min || tm.tm_sec != want.tm_sec ||
      want.tm_hour > 23)
    return bad_time(option, text, "no such date or time");
  return static_cast<int64_t>(t);
}

// A time of day as SCR's scr_halt examples write it: "12:00pm", "8:30 am
// tomorrow", "17:45:30 today" (local time; today unless "tomorrow").
std::optional<Result<int64_t>> time_of_day(std::string_view option, std::string_view text, int64_t now) {
  std::vector<std::string> words = str::split_ws(str::to_upper(std::string(text)));
  if (words.empty()) return std::nullopt;
  std::string clock = words[0];
  size_t next = 1;
  std::string half;  // "AM", "PM" or none
  for (const char* h : {"AM", "PM"}) {
    if (clock.size() > 2 && clock.ends_with(h)) {
      half = h;
      clock.resize(clock.size() - 2);
    } else if (next < words.size() && words[next] == h) {
      half = h;
      ++next;
    }
  }
  int day = 0;
  if (next < words.size() && (words[next] == "TODAY" || words[next] == "TOMORROW")) day = words[next++] == "TOMORROW";
  // Not this form at all (a date, say): let the caller try the others.
  if (clock.empty() || !std::isdigit(static_cast<unsigned char>(clock[0])) || clock.find('-') != std::string::npos)
    return std::nullopt;
  if (next != words.size()) return Result<int64_t>(bad_time(option, text));
  std::vector<std::string> parts = str::split(clock, ':', false);
  if (parts.size() > 3 || (half.empty() && parts.size() < 2)) return Result<int64_t>(bad_time(option, text));
  int hms[3] = {0, 0, 0};
  for (size_t i = 0; i < parts.size(); ++i) {
    auto v = str::parse_int(parts[i]);
    if (!v || *v < 0 || parts[i].empty() || parts[i].size() > 2 || (i > 0 && (parts[i].size() != 2 || *v > 59)))
      return Result<int64_t>(bad_time(option, text));
    hms[i] = static_cast<int>(*v);
  }
  if (half.empty() ? hms[0] > 23 : (hms[0] < 1 || hms[0] > 12)) return Result<int64_t>(bad_time(option, text));
  if (!half.empty()) hms[0] = hms[0] % 12 + (half == "PM" ? 12 : 0);
  std::time_t base = static_cast<std::time_t>(now);
  std::tm tm{};
  localtime_r(&base, &tm);
  tm.tm_hour = hms[0];
  tm.tm_min = hms[1];
  tm.tm_sec = hms[2];
  tm.tm_mday += day;
  tm.tm_isdst = -1;
  std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return Result<int64_t>(bad_time(option, text));
  return Result<int64_t>(static_cast<int64_t>(t));
}

}  // namespace

Result<int64_t> parse_time(std::string_view option, std::string_view text, int64_t now) {
  std::string t = str::trim(text);
  if (t.empty()) return bad_time(option, text);
  if (t[0] == '+') return relative(option, t, now);
  if (auto epoch = str::parse_int(t)) {
    if (*epoch < 0) return bad_time(option, text, "negative");
    return *epoch;
  }
  if (auto clock = time_of_day(option, t, now)) return *clock;
  return calendar(option, t);
}

}  // namespace scr::tools::halt
