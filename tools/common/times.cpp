#include "tools/common/times.hpp"

#include <ctime>
#include <string>

namespace scr::tools {

namespace {

std::string local_format(int64_t epoch_seconds, const char* format) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace

std::string local_time(int64_t epoch_seconds) { return local_format(epoch_seconds, "%Y-%m-%d %H:%M:%S"); }

// The tools never call setlocale, so %a and %b are asctime's English names.
std::string asctime_text(int64_t epoch_seconds) {
  return local_format(epoch_seconds, "%a %b %e %H:%M:%S %Y");
}

std::string duration_words(int64_t seconds) {
  if (seconds < 0) seconds = -seconds;
  struct Unit {
    int64_t size;
    const char* name;
  };
  static const Unit units[] = {{86400, "d"}, {3600, "h"}, {60, "min"}, {1, "s"}};
  std::string out;
  int parts = 0;
  for (const Unit& u : units) {
    int64_t n = seconds / u.size;
    if (n > 0) {
      out += (out.empty() ? "" : " ") + std::to_string(n) + " " + u.name;
      seconds -= n * u.size;
      if (++parts == 2) break;
    } else if (parts > 0) {
      break;  // "2 h", not "2 h 0 min 5 s"
    }
  }
  return out.empty() ? "0 s" : out;
}

int64_t now_seconds() { return static_cast<int64_t>(std::time(nullptr)); }

}  // namespace scr::tools
