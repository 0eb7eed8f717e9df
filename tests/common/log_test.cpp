#include "common/log.hpp"

#include <gtest/gtest.h>

#include <string>

namespace scr::log {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A warning about the whole run's configuration is printed once however many
// checkpoints meet it; a different text is still printed, and plain warn()
// repeats.
TEST(Log, WarnOncePrintsEachTextOnce) {
  testing::internal::CaptureStderr();
  for (int i = 0; i < 5; ++i) warn_once("XOR falls back to SINGLE on node n0");
  warn_once("RS SET_FAILURES=3 does not fit");
  warn("plain");
  warn("plain");
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "XOR falls back to SINGLE on node n0"), 1u) << err;
  EXPECT_EQ(count(err, "RS SET_FAILURES=3 does not fit"), 1u) << err;
  EXPECT_EQ(count(err, "plain"), 2u) << err;
}

}  // namespace
}  // namespace scr::log
