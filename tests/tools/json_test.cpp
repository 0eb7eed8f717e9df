// JSON output of the tools: valid syntax, escaping, stable key order, and
// metadata trees converted faithfully.
#include "tools/common/json.hpp"

#include <gtest/gtest.h>

#include "kvtree/file_list.hpp"
#include "tools/common/kv_json.hpp"

namespace {

using scr::tools::Json;

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
  EXPECT_EQ("\"a\\\"b\\\\c\\nd\\u0001\"", scr::tools::json_quote("a\"b\\c\nd\x01"));
  EXPECT_EQ("\"caf\xc3\xa9\"", scr::tools::json_quote("caf\xc3\xa9"));
}

TEST(Json, MetadataTreesBecomeObjectsOfStrings) {
  scr::kv::Tree t;
  t.set("NAME", "step.10");
  t.child("RANK", 0).child("FILE").child("a.dat").set_int("SIZE", 8);
  t.child("FLAG");
  EXPECT_EQ(
      "{\n  \"FLAG\": null,\n  \"NAME\": \"step.10\",\n  \"RANK\": {\n    \"0\": {\n"
      "      \"FILE\": {\n        \"a.dat\": {\n          \"SIZE\": \"8\"\n        }\n"
      "      }\n    }\n  }\n}",
      scr::tools::tree_to_json(t).dump());
}

TEST(Json, FileListsBecomeArraysOfObjects) {
  scr::kv::Tree t;
  scr::kv::put_file_list(t, "FILELIST", {{"a.dat", 8, 7u, false, std::nullopt}, {"b.dat", 9, std::nullopt, true, std::nullopt}});
  EXPECT_EQ(
      "{\n  \"FILELIST\": [\n    {\n      \"name\": \"a.dat\",\n      \"size\": 8,\n      \"crc32c\": 7\n    },\n"
      "    {\n      \"name\": \"b.dat\",\n      \"size\": 9,\n      \"shared\": true\n    }\n  ]\n}",
      scr::tools::tree_to_json(t).dump());
}

}  // namespace
