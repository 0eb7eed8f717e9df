// Epoch seconds of a local date and time, for tests of what the tools print
// in local time.
#pragma once

#include <cstdint>
#include <ctime>

namespace scr::tools::test {

inline int64_t local_epoch(int y, int mo, int d, int hh, int mm, int ss) {
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = hh;
  tm.tm_min = mm;
  tm.tm_sec = ss;
  tm.tm_isdst = -1;
  return static_cast<int64_t>(std::mktime(&tm));
}

}  // namespace scr::tools::test
