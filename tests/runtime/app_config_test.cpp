// SCR_Config semantics: set, query, unset, multi-item set/merge/query/unset,
// and errors that name the key, all without touching other layers.
#include <gtest/gtest.h>

#include "config_test_util.hpp"
#include "runtime/config.hpp"

namespace scr::rt {
namespace {

using testing::FailsWith;

std::optional<std::string> query(Config& c, const std::string& text) {
  auto r = c.apply_app_config(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().to_string();
  return r.ok() ? *r : std::nullopt;
}

void set(Config& c, const std::string& text) {
  auto r = c.apply_app_config(text);
  ASSERT_TRUE(r.ok()) << text << ": " << r.status().to_string();
  EXPECT_FALSE(r->has_value()) << text << " returned a value";
}

TEST(AppConfig, SetQueryUnset) {
  Config c;
  // As SCR: a query answers what the user set, never the built-in default.
  EXPECT_EQ(query(c, "SCR_FLUSH"), std::nullopt);
  EXPECT_EQ(*c.get("SCR_FLUSH"), "10");  // the effective value the runtime uses
  set(c, "SCR_FLUSH=20");
  EXPECT_EQ(query(c, "SCR_FLUSH"), "20");
  EXPECT_EQ(query(c, " SCR_FLUSH "), "20");
  set(c, "SCR_COPY_TYPE = rs");
  EXPECT_EQ(query(c, "SCR_COPY_TYPE"), "RS");
  set(c, "SCR_FLUSH=");
  EXPECT_EQ(query(c, "SCR_FLUSH"), std::nullopt);
  // "=" may appear inside a string value.
  set(c, "SCR_JOB_NAME=a=b");
  EXPECT_EQ(query(c, "SCR_JOB_NAME"), "a=b");
  EXPECT_EQ(query(c, "SCR_JOB_ID"), std::nullopt);  // known, no default
  set(c, "SCR_JOB_ID=");                            // unsetting what is unset is fine
}

TEST(AppConfig, ErrorsNameTheKeyAndChangeNothing) {
  Config c;
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_FLUSH=abc").status(),
                        {"SCR_FLUSH=abc", "not an integer"}));
  // The C API prefixes "SCR_Config: " once; the message must not repeat it.
  EXPECT_EQ(c.apply_app_config("SCR_FLUSH=abc").status().message().find("SCR_Config"), std::string::npos);
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_NOPE=1").status(), {"SCR_NOPE"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_FLUSH_ASYNCH=1").status(),
                        {"SCR_FLUSH_ASYNCH", "did you mean SCR_FLUSH_ASYNC"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_NOPE").status(), {"unknown key 'SCR_NOPE'"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_NOPE=").status(), {"SCR_NOPE"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("").status(), {"empty"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_FLUSH 3").status(), {"SCR_FLUSH"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_SYSTEM_CONF_FILE=/x").status(),
                        {"SCR_SYSTEM_CONF_FILE", "environment"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 TYPE=FOO SET_SIZE=4").status(),
                        {"CKPT=0 TYPE=FOO"}));
  EXPECT_EQ(c.table("CKPT"), nullptr);  // the good SET_SIZE item was not kept either
  EXPECT_EQ(*c.get("SCR_FLUSH"), "10");
}

TEST(AppConfig, MultiItemSetMergeQueryUnset) {
  Config c;
  set(c, "CKPT=0 TYPE=XOR SET_SIZE=16");
  EXPECT_EQ(query(c, "CKPT=0 TYPE"), "XOR");
  EXPECT_EQ(query(c, "CKPT=0 SET_SIZE"), "16");
  EXPECT_EQ(query(c, "CKPT=0 GROUP"), std::nullopt);  // valid item, not set
  EXPECT_EQ(query(c, "CKPT=3 TYPE"), std::nullopt);   // no such entry

  set(c, "CKPT=0 TYPE=rs SET_FAILURES=3");  // merges into entry 0
  EXPECT_EQ(query(c, "CKPT=0 TYPE"), "RS");
  EXPECT_EQ(query(c, "CKPT=0 SET_SIZE"), "16");
  EXPECT_EQ(query(c, "CKPT=0 SET_FAILURES"), "3");

  set(c, "CKPT=0 SET_FAILURES=");
  EXPECT_EQ(query(c, "CKPT=0 SET_FAILURES"), std::nullopt);
  EXPECT_EQ(query(c, "CKPT=0 TYPE"), "RS");

  set(c, "CKPT=1 TYPE=");  // only unsets: creates no entry 1
  EXPECT_EQ(c.table("CKPT")->get("1"), nullptr);
  set(c, "CKPT=2");  // a bare entry takes every default
  ASSERT_NE(c.table("CKPT")->get("2"), nullptr);

  set(c, "STORE=/ssd/ GROUP=NODE COUNT=2");
  EXPECT_EQ(query(c, "STORE=/ssd COUNT"), "2");  // head normalized like the stored one
  set(c, "GROUPS=host1 POWER=psu1");
  EXPECT_EQ(query(c, "GROUPS=host1 POWER"), "psu1");

  set(c, "CKPT=");
  EXPECT_EQ(c.table("CKPT"), nullptr);
}

TEST(AppConfig, MultiItemErrors) {
  Config c;
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 COLOR=red").status(), {"unknown item 'COLOR'"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 COLOR").status(), {"unknown item 'COLOR'"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 TYPE SET_SIZE").status(), {"query one item"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 TYPE SET_SIZE=2").status(), {"query one item"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT").status(), {"CKPT="}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=-1 TYPE=XOR").status(), {"CKPT=-1", "between 0 and"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT= TYPE=XOR").status(), {"CKPT"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("GROUPS=h NODE=x").status(), {"NODE", "built in"}));
}

TEST(AppConfig, LowerLayersAreUntouched) {
  Config c;
  set(c, "SCR_CACHE_SIZE=4");
  EXPECT_EQ(*c.layer(Layer::builtin).param("SCR_CACHE_SIZE"), "1");
  EXPECT_EQ(*c.layer(Layer::app).param("SCR_CACHE_SIZE"), "4");
  EXPECT_EQ(c.source("SCR_CACHE_SIZE")->layer, Layer::app);
}

}  // namespace
}  // namespace scr::rt
