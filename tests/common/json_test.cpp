// The one JSON writer (common/json.hpp): valid syntax, escaping, stable key
// order, indented for the tools and on one line for the event log.
#include "common/json.hpp"

#include <gtest/gtest.h>

namespace {

using scr::Json;

TEST(Json, ObjectsKeepInsertionOrderAndReplaceKeys) {
  Json j = Json::object();
  j.set("b", 1).set("a", true).set("b", "two");
  EXPECT_EQ("{\n  \"b\": \"two\",\n  \"a\": true\n}", j.dump());
}

TEST(Json, NestedArraysAndEmptyContainers) {
  Json j = Json::object();
  j.set("list",
        Json::array().push(Json()).push(int64_t{-3}).push(uint64_t{18446744073709551615ull}))
      .set("none", Json::array())
      .set("obj", Json::object());
  EXPECT_EQ(
      "{\n  \"list\": [\n    null,\n    -3,\n    18446744073709551615\n  ],\n"
      "  \"none\": [],\n  \"obj\": {}\n}",
      j.dump());
}

TEST(Json, StringsAreEscaped) {
  EXPECT_EQ("\"a\\\"b\\\\c\\nd\\u0001\"", scr::json_quote("a\"b\\c\nd\x01"));
  EXPECT_EQ("\"caf\xc3\xa9\"", scr::json_quote("caf\xc3\xa9"));
}

TEST(Json, OneLineHasNoBlanksBetweenTokens) {
  Json j = Json::object();
  j.set("event", "START").set("id", 3).set("list", Json::array().push(1).push("a b")).set("none", Json::object());
  EXPECT_EQ("{\"event\":\"START\",\"id\":3,\"list\":[1,\"a b\"],\"none\":{}}", j.dump_line());
  EXPECT_EQ("{\"note\":\"two\\nlines\"}", Json::object().set("note", "two\nlines").dump_line());
}

TEST(Json, NumbersPrintAsAsked) {
  EXPECT_EQ("0.412", Json(0.412).dump());
  EXPECT_EQ("1234.57", Json(1234.5678).dump());  // six significant digits
  EXPECT_EQ("1234.568", Json::fixed(1234.5678, 3).dump());
  EXPECT_EQ("2.000", Json::fixed(2, 3).dump_line());
  EXPECT_EQ("null", Json::fixed(1.0 / 0.0, 3).dump());  // JSON has no infinity
}

}  // namespace
