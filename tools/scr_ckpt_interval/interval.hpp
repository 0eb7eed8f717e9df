// The optimal checkpoint interval from what a prefix's event log observed.
// The log is <prefix>/.scr/log.jsonl (SCR_LOG_ENABLE=1): one JSON object per
// line written by the job's rank 0, e.g.
//   {"time":"2026-11-24T13:05:01Z","job":"1234","user":"me",
//    "event":"CHECKPOINT_COMPLETE","dataset":"ckpt.10","id":3,
//    "seconds":0.412,"bytes":536870912}
// with events START, END, FAILURE, CHECKPOINT_COMPLETE (seconds: time spent
// in the checkpoint), FLUSH, RESTART, HALT. From it:
//  - the checkpoint cost C: the median "seconds" of CHECKPOINT_COMPLETE;
//  - the failures: runs (a START) that failed, i.e. logged a FAILURE, or
//    never logged END before a later START (the newest run, still open at
//    the end of the log, may still be running and is not counted);
//  - the observed span, first to last event, and the MTBF = span / failures;
//  - Young's interval sqrt(2 C M) and Daly's higher-order refinement
//    sqrt(2 C M) (1 + sqrt(C/2M)/3 + (C/2M)/9) - C, or M when C >= 2M.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace scr::tools::interval {

// One log line's members: strings as they are, numbers and booleans as text.
using Event = std::map<std::string, std::string>;

// Parses one line holding a flat JSON object; Errc::corrupt says where not.
Result<Event> parse_event(std::string_view line);

// "2026-11-24T13:05:01Z" (fractional seconds and a numeric offset allowed)
// to epoch seconds.
std::optional<double> parse_time(std::string_view text);

struct Observed {
  size_t events = 0;
  std::vector<double> ckpt_seconds;  // each CHECKPOINT_COMPLETE's cost
  int runs = 0;                      // START events
  int failures = 0;                  // failed runs, as above
  int failure_events = 0;            // FAILURE events among them
  int open_runs = 0;                 // the newest run, still without END
  double span = 0;                   // seconds from the first to the last event
  // Values that cannot be what SCR++ logged, left out: a "time" that does
  // not parse or lies before 2000 or over a day ahead of `now`, a
  // checkpoint's "seconds" that is not a number from 0 to a century.
  int bad_times = 0;
  int bad_seconds = 0;
};

Observed observe(const std::vector<Event>& events, double now);

std::optional<double> median(std::vector<double> values);

double young(double cost, double mtbf);
double daly(double cost, double mtbf);

}  // namespace scr::tools::interval
