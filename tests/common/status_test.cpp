#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/status.hpp"

namespace {

using scr::Errc;
using scr::Error;
using scr::Result;
using scr::Status;

TEST(Status, OkAndErrors) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), Errc::ok);
  EXPECT_EQ(ok.to_string(), "ok");
  Status bad = Error(Errc::not_found, "missing x");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.code(), Errc::not_found);
  EXPECT_EQ(bad.to_string(), "not found: missing x");
}

TEST(Status, ContextPrefixesOnlyErrors) {
  Status ok;
  ok.context("flush");
  EXPECT_EQ(ok.message(), "");
  Status bad = Error(Errc::io_error, "write failed");
  bad.context("flush dataset 3");
  EXPECT_EQ(bad.message(), "flush dataset 3: write failed");
  Status outer = bad.with_context("rank 2");
  EXPECT_EQ(outer.message(), "rank 2: flush dataset 3: write failed");
  EXPECT_EQ(bad.message(), "flush dataset 3: write failed");  // unchanged
  EXPECT_EQ(outer.code(), Errc::io_error);
}

TEST(Status, EveryCodeHasAName) {
  for (int c = 0; c <= static_cast<int>(Errc::permission); ++c) {
    std::string name = scr::errc_name(static_cast<Errc>(c));
    EXPECT_NE(name, "unknown") << "code " << c;
    EXPECT_FALSE(name.empty());
  }
  EXPECT_STREQ(scr::errc_name(Errc::no_space), "no space left");
  EXPECT_STREQ(scr::errc_name(Errc::corrupt), "corrupt data");
}

Result<int> half(int v) {
  if (v % 2) return Error(Errc::invalid_argument, std::to_string(v) + " is odd");
  return v / 2;
}

Status check_even(int v) {
  if (v % 2) return Error(Errc::invalid_argument, "odd");
  return Status::Ok();
}

Status try_both(int v, int* out) {
  SCR_TRY(check_even(v));
  SCR_ASSIGN_OR_RETURN(int h, half(v));
  SCR_ASSIGN_OR_RETURN(*out, half(h));
  return Status::Ok();
}

TEST(Result, ValueOrStatus) {
  auto r = half(8);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(*r, 4);
  EXPECT_TRUE(r.status().ok());
  auto e = half(3);
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), Errc::invalid_argument);
  EXPECT_EQ(e.status().message(), "3 is odd");
}

TEST(Result, MoveOnlyValue) {
  Result<std::unique_ptr<int>> r(std::make_unique<int>(5));
  ASSERT_TRUE(r.ok());
  std::unique_ptr<int> p = std::move(r).value();
  EXPECT_EQ(*p, 5);
}

TEST(Macros, PropagateFirstFailure) {
  int out = -1;
  EXPECT_TRUE(try_both(8, &out).ok());
  EXPECT_EQ(out, 2);
  out = -1;
  Status s = try_both(3, &out);
  EXPECT_EQ(s.message(), "odd");  // SCR_TRY stopped it
  EXPECT_EQ(out, -1);
  s = try_both(6, &out);  // 6 -> 3, the second half() fails
  EXPECT_EQ(s.code(), Errc::invalid_argument);
  EXPECT_EQ(s.message(), "3 is odd");
  EXPECT_EQ(out, -1);
}

}  // namespace
