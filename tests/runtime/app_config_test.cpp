// SCR_Config semantics: set, query, unset, multi-item set/merge/query/unset,
// and errors that name the key, all without touching other layers.
#include <gtest/gtest.h>

#include "config_test_util.hpp"
#include "runtime/config/config.hpp"

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
  EXPECT_TRUE(FailsWith(c.apply_app_config("").status(), {"empty"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_FLUSH 3").status(), {"SCR_FLUSH"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_SYSTEM_CONF_FILE=/x").status(),
                        {"SCR_SYSTEM_CONF_FILE", "environment"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 TYPE=FOO SET_SIZE=4").status(),
                        {"CKPT=0 TYPE=FOO"}));
  EXPECT_EQ(c.table("CKPT"), nullptr);  // the good SET_SIZE item was not kept either
  EXPECT_EQ(*c.get("SCR_FLUSH"), "10");
}

// As SCR (its test_config.c sets DEBUG=1 and reads it back): a key SCR++
// does not know is stored and answered, with a warning that keeps the
// suggestion; it never fails.
TEST(AppConfig, UnknownKeysAreStoredAndAnswered) {
  Config c;
  std::vector<std::string> warnings;
  auto r = c.apply_app_config("DEBUG=1", &warnings);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r, std::nullopt);
  EXPECT_EQ(query(c, "DEBUG"), "1");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("unknown key 'DEBUG'"), std::string::npos) << warnings[0];
  set(c, "DEBUG  = 0");
  EXPECT_EQ(query(c, "DEBUG"), "0");
  EXPECT_EQ(*c.get("SCR_DEBUG"), "0");  // nothing known changed

  ASSERT_TRUE(c.apply_app_config("SCR_FLUSH_ASYNCH=1", &warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("did you mean SCR_FLUSH_ASYNC?"), std::string::npos) << warnings[0];
  EXPECT_EQ(query(c, "SCR_FLUSH_ASYNCH"), "1");
  EXPECT_EQ(*c.get("SCR_FLUSH_ASYNC"), "0");

  EXPECT_EQ(query(c, "FOOBAR"), std::nullopt);  // never set
  set(c, "FOOBAR=");                            // unsetting what is unset is fine
  set(c, "DEBUG=");
  EXPECT_EQ(query(c, "DEBUG"), std::nullopt);
  // Queries and unsets warn about nothing.
  ASSERT_TRUE(c.apply_app_config("NOPE", &warnings).ok());
  EXPECT_TRUE(warnings.empty());

  // A known key with a bad value is still an error.
  EXPECT_TRUE(FailsWith(c.apply_app_config("SCR_FLUSH=abc").status(), {"SCR_FLUSH=abc"}));

  // The broadcast form keeps them.
  set(c, "MY_APP_KEY=a b");
  auto copy = Config::from_tree(c.to_tree());
  ASSERT_TRUE(copy.ok()) << copy.status().to_string();
  EXPECT_EQ(query(*copy, "MY_APP_KEY"), "a b");
}

TEST(AppConfig, UnknownItemsAndBareTableQueries) {
  Config c;
  std::vector<std::string> warnings;
  // SCR's own test sets a descriptor with an item SCR++ does not know.
  ASSERT_TRUE(c.apply_app_config("CKPT=0 INTERNAL=1 GROUP=NODE STORE=/dev/shm TYPE=XOR SET_SIZE=16",
                                 &warnings)
                  .ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("unknown item 'INTERNAL'"), std::string::npos) << warnings[0];
  EXPECT_EQ(query(c, "CKPT=0 SET_SIZE"), "16");
  EXPECT_EQ(query(c, "CKPT=0 INTERNAL"), "1");
  EXPECT_EQ(query(c, "CKPT=1 FOOBAR"), std::nullopt);
  set(c, "CKPT=0 INTERNAL=");
  EXPECT_EQ(query(c, "CKPT=0 INTERNAL"), std::nullopt);
  EXPECT_EQ(query(c, "CKPT=0 TYPE"), "XOR");
  auto copy = Config::from_tree(c.to_tree());
  ASSERT_TRUE(copy.ok()) << copy.status().to_string();

  // A bare table name answers the head of its only entry.
  EXPECT_EQ(query(c, "STORE"), std::nullopt);
  set(c, "STORE= /dev/shm/foo GROUP = NODE COUNT  =1");
  EXPECT_EQ(query(c, "STORE"), "/dev/shm/foo");
  EXPECT_EQ(query(c, "STORE=/dev/shm/foo GROUP"), "NODE");
  set(c, "STORE=/dev/shm GROUP=NODE COUNT=1");
  EXPECT_EQ(query(c, "STORE=/dev/shm COUNT"), "1");
  EXPECT_FALSE(c.apply_app_config("STORE").ok());  // two entries: which one?
  set(c, "STORE=");
  EXPECT_EQ(query(c, "STORE"), std::nullopt);
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
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 TYPE SET_SIZE").status(), {"query one item"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=0 TYPE SET_SIZE=2").status(), {"query one item"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT=-1 TYPE=XOR").status(), {"CKPT=-1", "between 0 and"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("CKPT= TYPE=XOR").status(), {"CKPT"}));
  EXPECT_TRUE(FailsWith(c.apply_app_config("GROUPS=h NODE=x").status(), {"NODE", "built in"}));
}

// The environment is read at each call, not only at the first: a variable
// exported after an earlier SCR_Config call is seen by the next one, as in SCR
// (its test_config exports SCR_CONF_FILE, then sets SCR_PREFIX and expects the
// user file's SCR_PREFIX back).
TEST(AppConfig, EnvironmentChangedBetweenCallsIsSeen) {
  testing::TempDir dir;
  testing::FakeEnvironment env;
  auto loaded = Config::load(env.sources(dir));
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  Config& c = *loaded;
  set(c, "SCR_FLUSH=3");
  env.vars["SCR_CACHE_SIZE"] = "7";
  EXPECT_EQ(query(c, "SCR_CACHE_SIZE"), "7");
  env.vars.erase("SCR_CACHE_SIZE");
  EXPECT_EQ(query(c, "SCR_CACHE_SIZE"), std::nullopt);

  std::string from_file = dir.file("from_file");
  env.vars["SCR_CONF_FILE"] = dir.write("user.conf", "SCR_PREFIX=" + from_file + "\n");
  set(c, "SCR_PREFIX=" + dir.path());
  // The user file named by the environment outranks SCR_Config.
  EXPECT_EQ(query(c, "SCR_PREFIX"), from_file);
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
