// Wall-clock seconds since the epoch, as the event log, the index
// (FLUSHED_AT, CREATED) and the timing of phases record them.
#pragma once

#include <chrono>

namespace scr {

inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace scr
