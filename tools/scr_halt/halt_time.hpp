// Times given to scr_halt --before/--after, as epoch seconds:
//   1795300000             epoch seconds
//   "2026-11-21 20:00"     local time, seconds optional ("...:30"), 'T' also
//                          separates date and time
//   "12:00pm" "8:30 am tomorrow" "17:45"   a time of day as SCR's examples
//                          write it: today, or tomorrow when it says so
//   +90  +90s  +15m  +2h  +1d   relative to now
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.hpp"

namespace scr::tools::halt {

// Errc::invalid_argument naming `option` and the accepted forms.
Result<int64_t> parse_time(std::string_view option, std::string_view text, int64_t now);

}  // namespace scr::tools::halt
