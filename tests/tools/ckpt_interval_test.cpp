// scr_ckpt_interval's reading of the event log (one JSON object per line,
// the format rank 0 writes to <prefix>/.scr/log.jsonl) and its formulas.
#include "tools/scr_ckpt_interval/interval.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

// "Now" for the tests: the logs below are of the day before.
constexpr double kNow = 1795564800;  // 2026-11-25T00:00:00Z

namespace iv = scr::tools::interval;

iv::Event ev(const char* line) {
  auto e = iv::parse_event(line);
  EXPECT_TRUE(e.ok()) << line << ": " << e.status().message();
  return e.ok() ? *e : iv::Event{};
}

TEST(CkptInterval, ParsesOneLogLine) {
  auto e = ev(R"({"time":"2026-11-24T13:05:01Z","job":"1234","user":"me","event":"CHECKPOINT_COMPLETE","dataset":"ckpt.10","id":3,"seconds":0.412,"bytes":536870912})");
  EXPECT_EQ("CHECKPOINT_COMPLETE", e["event"]);
  EXPECT_EQ("0.412", e["seconds"]);
  EXPECT_EQ("3", e["id"]);
  EXPECT_EQ("a\"b", ev(R"({"note":"a\"b"})")["note"]);
  EXPECT_FALSE(iv::parse_event(R"({"a":1)").ok());
  EXPECT_FALSE(iv::parse_event(R"({"a":{"b":1}})").ok());
  EXPECT_FALSE(iv::parse_event(R"({"a":1} x)").ok());
}

TEST(CkptInterval, ParsesTimes) {
  EXPECT_EQ(1795943101.0, *iv::parse_time("2026-11-29T09:05:01Z"));
  EXPECT_EQ(1795943101.5, *iv::parse_time("2026-11-29T09:05:01.5Z"));
  EXPECT_EQ(1795943101.0, *iv::parse_time("2026-11-29T10:05:01+01:00"));
  EXPECT_FALSE(iv::parse_time("yesterday").has_value());
}

TEST(CkptInterval, CountsFailedRunsOnce) {
  std::vector<iv::Event> log = {
      ev(R"({"time":"2026-11-24T10:00:00Z","job":"1","event":"START"})"),
      ev(R"({"time":"2026-11-24T10:10:00Z","job":"1","event":"CHECKPOINT_COMPLETE","seconds":2})"),
      // run 1 dies without END; run 2 starts
      ev(R"({"time":"2026-11-24T11:00:00Z","job":"1","event":"START"})"),
      ev(R"({"time":"2026-11-24T11:10:00Z","job":"1","event":"CHECKPOINT_COMPLETE","seconds":4})"),
      ev(R"({"time":"2026-11-24T11:20:00Z","job":"1","event":"FAILURE"})"),
      ev(R"({"time":"2026-11-24T11:20:01Z","job":"1","event":"END"})"),
      ev(R"({"time":"2026-11-24T12:00:00Z","job":"2","event":"START"})"),
      ev(R"({"time":"2026-11-24T12:10:00Z","job":"2","event":"CHECKPOINT_COMPLETE","seconds":3})"),
      ev(R"({"time":"2026-11-24T12:30:00Z","job":"2","event":"END"})"),
      ev(R"({"time":"2026-11-24T13:00:00Z","job":"3","event":"START"})"),
  };
  iv::Observed o = iv::observe(log, kNow);
  EXPECT_EQ(4, o.runs);
  EXPECT_EQ(2, o.failures);  // run 1 (no END), run 2 (FAILURE, then END)
  EXPECT_EQ(1, o.failure_events);
  EXPECT_EQ(1, o.open_runs);  // run 4 may still be running
  EXPECT_EQ(3 * 3600.0, o.span);
  EXPECT_EQ(3.0, *iv::median(o.ckpt_seconds));
}

// Values SCR++ never logs are left out and counted, not used: an infinite,
// negative or text cost; a time that does not parse, from 1900, or ahead.
TEST(CkptInterval, LeavesOutValuesNoLogHolds) {
  std::vector<iv::Event> log = {
      ev(R"({"time":"2026-11-24T10:00:00Z","job":"1","event":"START"})"),
      ev(R"({"time":"garbage","job":"1","event":"CHECKPOINT_COMPLETE","seconds":1e400})"),
      ev(R"({"time":"1900-01-01T00:00:00Z","job":"1","event":"CHECKPOINT_COMPLETE","seconds":-3})"),
      ev(R"({"time":"2126-01-01T00:00:00Z","job":"1","event":"CHECKPOINT_COMPLETE","seconds":"abc"})"),
      ev(R"({"time":"2026-11-24T10:10:00Z","job":"1","event":"CHECKPOINT_COMPLETE","seconds":2})"),
      ev(R"({"time":"2026-11-24T11:00:00Z","job":"1","event":"END"})"),
  };
  iv::Observed o = iv::observe(log, kNow);
  EXPECT_EQ(3, o.bad_times);
  EXPECT_EQ(3, o.bad_seconds);
  ASSERT_EQ(1u, o.ckpt_seconds.size());
  EXPECT_EQ(2.0, o.ckpt_seconds.front());
  EXPECT_EQ(3600.0, o.span);
}

TEST(CkptInterval, YoungAndDaly) {
  EXPECT_DOUBLE_EQ(std::sqrt(2.0 * 3 * 5400), iv::young(3, 5400));
  double r = 3.0 / (2 * 5400);
  EXPECT_DOUBLE_EQ(std::sqrt(2.0 * 3 * 5400) * (1 + std::sqrt(r) / 3 + r / 9) - 3, iv::daly(3, 5400));
  EXPECT_DOUBLE_EQ(10, iv::daly(25, 10));  // C >= 2M: checkpoint every M
  EXPECT_FALSE(iv::median({}).has_value());
  EXPECT_EQ(2.5, *iv::median({4, 1, 2, 3}));
}

}  // namespace
