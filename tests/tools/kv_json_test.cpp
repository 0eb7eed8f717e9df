// The tools' JSON of metadata trees (tools/common/kv_json.hpp): a tree and
// its file lists converted faithfully. The writer itself: tests/common.
#include "tools/common/kv_json.hpp"

#include <gtest/gtest.h>

#include "kvtree/file_list.hpp"

namespace {

TEST(KvJson, MetadataTreesBecomeObjectsOfStrings) {
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

TEST(KvJson, FileListsBecomeArraysOfObjects) {
  scr::kv::Tree t;
  scr::kv::put_file_list(t, "FILELIST", {{"a.dat", 8, 7u, false, std::nullopt}, {"b.dat", 9, std::nullopt, true, std::nullopt}});
  EXPECT_EQ(
      "{\n  \"FILELIST\": [\n    {\n      \"name\": \"a.dat\",\n      \"size\": 8,\n      \"crc32c\": 7\n    },\n"
      "    {\n      \"name\": \"b.dat\",\n      \"size\": 9,\n      \"shared\": true\n    }\n  ]\n}",
      scr::tools::tree_to_json(t).dump());
}

}  // namespace
