// scr_halt's parts without I/O: TIME parsing, the edits one call makes, the
// wording of the conditions (with the runtime's verdict), and SCR's layout.
#include <gtest/gtest.h>

#include "runtime/prefix/halt_file.hpp"
#include "tests/tools/local_epoch.hpp"
#include "tools/scr_halt/halt_edit.hpp"
#include "tools/scr_halt/halt_settings.hpp"
#include "tools/scr_halt/halt_time.hpp"
#include "tools/scr_halt/halt_words.hpp"

namespace {

namespace h = scr::tools::halt;
constexpr int64_t kNow = 1800000000;

using scr::tools::test::local_epoch;

TEST(HaltTime, AcceptsEpochCalendarAndRelativeForms) {
  EXPECT_EQ(1795300000, *h::parse_time("--after", "1795300000", kNow));
  EXPECT_EQ(local_epoch(2030, 1, 2, 3, 4, 0), *h::parse_time("--after", "2030-01-02 03:04", kNow));
  EXPECT_EQ(local_epoch(2030, 1, 2, 3, 4, 5),
            *h::parse_time("--after", "2030-01-02T03:04:05", kNow));
  EXPECT_EQ(kNow + 90, *h::parse_time("--after", "+90", kNow));
  EXPECT_EQ(kNow + 90, *h::parse_time("--after", "+90s", kNow));
  EXPECT_EQ(kNow + 15 * 60, *h::parse_time("--after", "+15m", kNow));
  EXPECT_EQ(kNow + 2 * 3600, *h::parse_time("--after", "+2h", kNow));
  EXPECT_EQ(kNow + 86400, *h::parse_time("--after", "+1d", kNow));
}

// SCR's own examples: "scr_halt --after 12:00pm", "--before '8:30am tomorrow'".
TEST(HaltTime, AcceptsTimesOfDayAsScrsExamplesWriteThem) {
  std::time_t now = static_cast<std::time_t>(kNow);
  std::tm today{};
  localtime_r(&now, &today);
  int y = today.tm_year + 1900, mo = today.tm_mon + 1, d = today.tm_mday;
  EXPECT_EQ(local_epoch(y, mo, d, 12, 0, 0), *h::parse_time("--after", "12:00pm", kNow));
  EXPECT_EQ(local_epoch(y, mo, d, 0, 0, 0), *h::parse_time("--after", "12:00am", kNow));
  EXPECT_EQ(local_epoch(y, mo, d, 15, 0, 0), *h::parse_time("--after", "3pm", kNow));
  EXPECT_EQ(local_epoch(y, mo, d, 17, 45, 30), *h::parse_time("--after", "17:45:30 today", kNow));
  EXPECT_EQ(local_epoch(y, mo, d + 1, 8, 30, 0), *h::parse_time("--before", "8:30am tomorrow", kNow));
  EXPECT_EQ(local_epoch(y, mo, d + 1, 20, 30, 0), *h::parse_time("--before", "8:30 PM Tomorrow", kNow));
}

TEST(HaltTime, RejectsWhatIsNotATimeNamingTheOption) {
  for (const char* bad : {"", "soon", "+", "+x", "+5y", "-5", "2030-02-30 10:00",
                          "2030-01-02 25:00", "2030-01-02 10:00:00 extra", "2030-01-02",
                          "13pm", "0am", "24:00", "12:60pm", "12::00", "8:5am", "8:30am yesterday",
                          "17 today"}) {
    auto t = h::parse_time("--before", bad, kNow);
    EXPECT_FALSE(t.ok()) << bad;
    if (!t.ok()) {
      EXPECT_EQ(0u, t.status().message().find("--before: '")) << t.status().message();
    }
  }
}

TEST(HaltEdit, SetsUnsetsAndRemovesFinalizedAloneOrWithEverything) {
  scr::kv::Tree file;
  file.set("FINALIZED", "job7");
  file.set_int("CHECKPOINTS", 3);
  h::Changes c;
  c.set[h::kReason] = "maintenance";
  c.unset.insert(h::kCheckpoints);
  h::Edit e = h::apply_changes(file, c);
  EXPECT_TRUE(e.changed);
  EXPECT_EQ("maintenance", e.tree.value_or(h::kReason, ""));
  EXPECT_FALSE(e.tree.has(h::kCheckpoints));
  EXPECT_EQ((std::vector<std::string>{"unset CHECKPOINTS", "set EXIT_REASON = maintenance"}),
            e.done);

  // --remove-finalized: the mark alone.
  h::Changes unfinalize;
  unfinalize.unset.insert(h::kFinalized);
  h::Edit only = h::apply_changes(e.tree, unfinalize);
  EXPECT_TRUE(only.changed);
  EXPECT_EQ(std::vector<std::string>{"EXIT_REASON"}, only.tree.keys());

  // --remove: everything, the mark too, as SCR deletes the halt file.
  h::Changes remove;
  remove.remove_all = true;
  e = h::apply_changes(e.tree, remove);
  EXPECT_TRUE(e.changed);
  EXPECT_TRUE(e.tree.empty());
}

TEST(HaltEdit, RequestsAlreadyInPlaceChangeNothing) {
  scr::kv::Tree file;
  file.set_int("CHECKPOINTS", 2);
  h::Changes c;
  c.set[h::kCheckpoints] = "2";
  c.unset.insert(h::kAfter);
  h::Edit e = h::apply_changes(file, c);
  EXPECT_FALSE(e.changed);
  EXPECT_EQ((std::vector<std::string>{"EXIT_AFTER was not set", "CHECKPOINTS is already 2"}),
            e.no_ops);
  // Removing everything and setting it again is no change either.
  c.remove_all = true;
  c.unset.clear();
  EXPECT_FALSE(h::apply_changes(file, c).changed);
}

TEST(HaltWords, DescribesEachConditionAndTheRuntimesVerdict) {
  scr::kv::Tree t;
  t.set_int("CHECKPOINTS", 2);
  t.set_int("EXIT_AFTER", kNow + 3600);
  t.set_int("EXIT_BEFORE", kNow + 7200);
  t.set_int("HALT_SECONDS", 600);
  t.set("FINALIZED", "job7");
  auto lines = h::describe(t, kNow);
  ASSERT_EQ(4u, lines.size());
  EXPECT_EQ("halt after 2 more checkpoints [CHECKPOINTS]", lines[0]);
  EXPECT_NE(std::string::npos, lines[1].find("(in 1 h) [EXIT_AFTER]")) << lines[1];
  EXPECT_NE(std::string::npos, lines[2].find("(in 2 h), leaving 600 seconds (HALT_SECONDS)"))
      << lines[2];
  EXPECT_NE(std::string::npos, lines[3].find("job job7")) << lines[3];
  EXPECT_EQ("", h::stop_reason(t, kNow));
  EXPECT_NE("", h::stop_reason(t, kNow + 3600));  // EXIT_AFTER reached
  EXPECT_NE("", h::stop_reason(t, kNow + 6700));  // within HALT_SECONDS of EXIT_BEFORE
  t.set_int("CHECKPOINTS", 0);
  EXPECT_EQ("the requested number of checkpoints was reached", h::stop_reason(t, kNow));
  std::string json = h::conditions_json("/p/.scr/halt.scr", true, t, kNow).dump();
  EXPECT_NE(std::string::npos, json.find("\"CHECKPOINTS\": 0")) << json;
  EXPECT_NE(std::string::npos, json.find("\"FINALIZED\": \"job7\"")) << json;
  EXPECT_NE(std::string::npos, json.find("\"stop_now\": true")) << json;
}

// The name SCR_HALT_EXIT records in EXIT_REASON, SCR 3.1's: the file's reason
// if it has one, else the first of its checks that holds (time limit,
// checkpoints, before, after).
TEST(HaltExitReason, NamesTheConditionAsScrRecordsIt) {
  using scr::rt::halt_exit_reason;
  scr::kv::Tree t;
  EXPECT_EQ("", halt_exit_reason(t, 600, kNow + 3600, kNow));
  EXPECT_EQ("TIME_LIMIT", halt_exit_reason(t, 600, kNow + 300, kNow));
  EXPECT_EQ("", halt_exit_reason(t, 600, 0, kNow));  // no allocation end known
  // The first condition that holds, in SCR's order.
  t.set_int("EXIT_AFTER", kNow - 1);
  EXPECT_EQ("EXIT_AFTER_TIME", halt_exit_reason(t, 0, 0, kNow));
  t.set_int("EXIT_BEFORE", kNow + 100);
  t.set_int("HALT_SECONDS", 600);
  EXPECT_EQ("EXIT_BEFORE_TIME", halt_exit_reason(t, 0, 0, kNow));
  t.set_int("CHECKPOINTS", 0);
  EXPECT_EQ("NO_CHECKPOINTS_LEFT", halt_exit_reason(t, 0, 0, kNow));
  EXPECT_EQ("TIME_LIMIT", halt_exit_reason(t, 600, kNow + 300, kNow));
  // A reason already in the file stays, whatever else holds.
  t.set("EXIT_REASON", "maintenance");
  EXPECT_EQ("maintenance", halt_exit_reason(t, 600, kNow + 300, kNow));
}

// SCR 3.1's scr_halt output, byte for byte: its key names, its column, times
// as asctime writes them, the derived "ExitBefore - HaltSeconds" line.
TEST(HaltSettings, ListsConditionsInScrsLayout) {
  int64_t before = local_epoch(2030, 1, 2, 3, 4, 5);
  int64_t after = local_epoch(2030, 1, 13, 14, 0, 0);
  scr::kv::Tree t;
  t.set("EXIT_REASON", "maintenance");
  t.set_int("CHECKPOINTS", 5);
  t.set_int("EXIT_AFTER", after);
  t.set_int("EXIT_BEFORE", before);
  t.set_int("HALT_SECONDS", 600);
  t.set("FINALIZED", "job7");
  EXPECT_EQ(
      "Halt file settings for run1/.scr/halt.scr:\n"
      "  ExitReason:      maintenance\n"
      "  CheckpointsLeft: 5\n"
      "  ExitAfter:       Sun Jan 13 14:00:00 2030\n"
      "  ExitBefore:      Wed Jan  2 03:04:05 2030\n"
      "  HaltSeconds:     600\n"
      "  ExitBefore - HaltSeconds: Wed Jan  2 02:54:05 2030\n",
      h::scr_settings_text("run1/.scr/halt.scr", t));
  EXPECT_EQ("Halt file settings for /p/.scr/halt.scr:\n  None\n",
            h::scr_settings_text("/p/.scr/halt.scr", scr::kv::Tree()));
  // A finished job: SCR's library writes its own reason, SCR++ FINALIZED.
  scr::kv::Tree finished;
  finished.set("FINALIZED", "job7");
  EXPECT_EQ("Halt file settings for /p/.scr/halt.scr:\n  ExitReason:      SCR_FINALIZE_CALLED\n",
            h::scr_settings_text("/p/.scr/halt.scr", finished));
}

TEST(HaltSettings, NamesTheChangesAskedForInScrsOrder) {
  h::Changes c;
  c.set[h::kReason] = "JOB_HALTED";
  c.set[h::kCheckpoints] = "1";
  c.unset.insert(h::kBefore);
  c.unset.insert(h::kFinalized);
  EXPECT_EQ("Setting CheckpointsLeft\nUnsetting ExitBefore\nSetting ExitReason\n\n",
            h::scr_changes_text(c));
}

}  // namespace
