// Times as operators read them.
#pragma once

#include <cstdint>
#include <string>

namespace scr::tools {

// Local time "YYYY-MM-DD HH:MM:SS" of epoch seconds.
std::string local_time(int64_t epoch_seconds);

// Local time as C's asctime writes it, as SCR's scr_halt lists times:
// "Wed Jan  2 03:04:05 2030" (no newline).
std::string asctime_text(int64_t epoch_seconds);
// "2 h 5 min", "3 min 20 s", "45 s" (rounded to the two largest units).
std::string duration_words(int64_t seconds);
// Seconds since the epoch, now.
int64_t now_seconds();

}  // namespace scr::tools
