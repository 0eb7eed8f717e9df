// The event log writes through the job's io::Env like every other file, so
// a FaultEnv reaches it: a sink whose write fails is reported once and left
// alone, the other sink goes on, and recording never fails the run.
#include "runtime/prefix/event_log.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "../io/temp_dir.hpp"
#include "io/fault_env.hpp"

namespace {

using namespace scr;
namespace fixture = scr::testing;

rt::Settings log_settings(const std::string& prefix) {
  rt::Settings s;
  s.prefix = prefix;
  s.log_enable = true;
  s.log_syslog = false;
  std::filesystem::create_directories(prefix + "/.scr");
  return s;
}

size_t lines_in(const std::string& path) {
  std::string text = fixture::read_raw(path);
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(EventLog, WritesEachSinkThroughTheEnv) {
  fixture::TempDir dir;
  io::FaultEnv env(io::Env::posix());
  env.crash_at_step(1);  // from the first mutating step on, nothing reaches a file
  rt::EventLog log(env, log_settings(dir.path()), "1234", "me", true);
  ::testing::internal::CaptureStderr();
  log.record({"START", "", 0, -1, -1, "4 processes"});
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(env.crashed());
  EXPECT_FALSE(std::filesystem::exists(dir / ".scr/log"));
  EXPECT_FALSE(std::filesystem::exists(dir / ".scr/log.jsonl"));
  EXPECT_NE(err.find("event log"), std::string::npos) << err;
}

TEST(EventLog, AFailedWriteStopsThatSinkOnlyAndOnce) {
  fixture::TempDir dir;
  io::FaultEnv env(io::Env::posix());
  env.fail_write(1, ENOSPC, "log.jsonl");  // every write to the JSON log fails
  rt::EventLog log(env, log_settings(dir.path()), "1234", "me", true);
  ::testing::internal::CaptureStderr();
  log.record({"START", "", 0, -1, -1, "4 processes"});
  int writes_after_first = env.writes();
  log.record({"CHECKPOINT_COMPLETE", "ckpt.1", 1, 0.5, 4096, ""});
  log.record({"END", "", 0, 2.0, -1, "ok"});
  std::string err = ::testing::internal::GetCapturedStderr();

  // The text sink kept every event; the JSON sink was tried once.
  EXPECT_EQ(3u, lines_in(dir / ".scr/log"));
  EXPECT_EQ(0u, lines_in(dir / ".scr/log.jsonl"));
  EXPECT_EQ(writes_after_first + 2, env.writes()) << "only the text log is written after the failure";
  size_t first = err.find("log.jsonl");
  ASSERT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find("log.jsonl", err.find('\n', first)), std::string::npos) << "reported once: " << err;
}

TEST(EventLog, LinesAreAppended) {
  fixture::TempDir dir;
  rt::Settings s = log_settings(dir.path());
  rt::EventLog first(io::Env::posix(), s, "1", "me", true);
  first.record({"START", "", 0, -1, -1, ""});
  rt::EventLog second(io::Env::posix(), s, "2", "me", true);  // a later run, same prefix
  second.record({"START", "", 0, -1, -1, ""});
  EXPECT_EQ(2u, lines_in(dir / ".scr/log"));
  std::string json = fixture::read_raw(dir / ".scr/log.jsonl");
  EXPECT_NE(json.find("\"job\":\"1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"job\":\"2\""), std::string::npos) << json;
  EXPECT_EQ(0600u, fixture::mode_of(dir / ".scr/log.jsonl"));
}

TEST(EventLog, JsonLineIsOneCompactObject) {
  rt::Event e{"CHECKPOINT_COMPLETE", "ckpt.10", 3, 0.412, 536870912, "a \"quoted\"\tnote"};
  EXPECT_EQ(
      "{\"time\":\"2026-11-24T13:05:01Z\",\"job\":\"1234\",\"user\":\"me\",\"event\":\"CHECKPOINT_COMPLETE\","
      "\"dataset\":\"ckpt.10\",\"id\":3,\"seconds\":0.412,\"bytes\":536870912,\"note\":\"a \\\"quoted\\\"\\tnote\"}",
      rt::EventLog::json_line("2026-11-24T13:05:01Z", "1234", "me", e));
}

}  // namespace
