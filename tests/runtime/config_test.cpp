// Config: the five layers and their precedence, locating the user file,
// the environment layer, typed getters, sources, and the broadcast tree.
#include <gtest/gtest.h>

#include "config_test_util.hpp"
#include "kvtree/codec.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/params.hpp"

namespace scr::rt {
namespace {

using testing::FailsWith;
using testing::FakeEnvironment;
using testing::TempDir;

class ConfigTest : public ::testing::Test {
 protected:
  Config load() {
    auto c = Config::load(fake.sources(dir));
    EXPECT_TRUE(c.ok()) << c.status().to_string();
    return c.ok() ? *c : Config();
  }
  void app(Config& c, const std::string& text) {
    auto r = c.apply_app_config(text);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_FALSE(r->has_value()) << text;
  }
  static Layer layer_of(const Config& c, std::string_view key) {
    auto src = c.source(key);
    EXPECT_TRUE(src.has_value()) << key;
    return src ? src->layer : Layer::builtin;
  }

  TempDir dir;
  FakeEnvironment fake;
};

TEST_F(ConfigTest, DefaultsWhenNothingIsConfigured) {
  Config c = load();
  EXPECT_EQ(*c.get("SCR_PREFIX"), dir.path());
  EXPECT_EQ(*c.get("SCR_FLUSH"), "10");
  EXPECT_EQ(*c.get("SCR_COPY_TYPE"), "XOR");
  EXPECT_FALSE(c.get("SCR_JOB_ID"));
  EXPECT_EQ(layer_of(c, "SCR_CACHE_BASE"), Layer::builtin);
  EXPECT_EQ(c.user_file(), dir.file(".scrconf"));
  EXPECT_EQ(c.table("CKPT"), nullptr);
}

// A fixed environment (a simulated rank's) keeps its own copy of the
// variables: the map it came from may be gone when the config reloads.
TEST(ConfigSourcesTest, FromVariablesKeepsItsOwnCopy) {
  TempDir dir;
  std::optional<ConfigSources> sources;
  {
    std::map<std::string, std::string> vars{{"SCR_CACHE_SIZE", "3"},
                                            {"SCR_SYSTEM_CONF_FILE", dir.file("system.conf")}};
    sources = ConfigSources::from_variables(vars, io::Env::posix(), dir.path());
  }
  EXPECT_STREQ(sources->getenv("SCR_CACHE_SIZE"), "3");
  EXPECT_EQ(sources->getenv("SCR_PREFIX"), nullptr);
  EXPECT_EQ(sources->env_names(), (std::vector<std::string>{"SCR_CACHE_SIZE", "SCR_SYSTEM_CONF_FILE"}));
  EXPECT_EQ(sources->cwd, dir.path());
  auto cfg = Config::load(*sources);
  ASSERT_TRUE(cfg.ok()) << cfg.status().to_string();
  EXPECT_EQ(*cfg->get("SCR_CACHE_SIZE"), "3");
  EXPECT_EQ(*cfg->get("SCR_PREFIX"), dir.path());
}

TEST_F(ConfigTest, PrecedenceAcrossAllFiveLayers) {
  std::string system = dir.write("system.conf", "SCR_CACHE_SIZE=7\nSCR_FLUSH=4\n");
  std::string user = dir.write(".scrconf", "# user\nSCR_FLUSH=2\n");
  fake.vars["SCR_FLUSH"] = "1";
  Config c = load();
  app(c, "SCR_FLUSH=3");

  EXPECT_EQ(*c.get("SCR_FLUSH"), "1");
  EXPECT_EQ(c.source("SCR_FLUSH")->describe(), "environment");
  EXPECT_EQ(*c.get("SCR_CACHE_SIZE"), "7");  // other keys still resolve key by key
  EXPECT_EQ(layer_of(c, "SCR_CACHE_SIZE"), Layer::system_file);

  fake.vars.erase("SCR_FLUSH");
  ASSERT_TRUE(c.reload().ok());
  EXPECT_EQ(*c.get("SCR_FLUSH"), "2");
  EXPECT_EQ(c.source("SCR_FLUSH")->describe(), "user config file " + user + ":2");

  dir.write(".scrconf", "SCR_DEBUG=1\n");
  ASSERT_TRUE(c.reload().ok());
  EXPECT_EQ(*c.get("SCR_FLUSH"), "3");  // SCR_Config survives a reload
  EXPECT_EQ(c.source("SCR_FLUSH")->describe(), "SCR_Config");

  app(c, "SCR_FLUSH=");
  EXPECT_EQ(*c.get("SCR_FLUSH"), "4");
  EXPECT_EQ(c.source("SCR_FLUSH")->describe(), "system config file " + system + ":2");

  dir.write("system.conf", "SCR_CACHE_SIZE=7\n");
  ASSERT_TRUE(c.reload().ok());
  EXPECT_EQ(*c.get("SCR_FLUSH"), "10");
  EXPECT_EQ(c.source("SCR_FLUSH")->describe(), "built-in default");
}

TEST_F(ConfigTest, TablesResolveAsAWholeFromTheHighestLayer) {
  dir.write("system.conf",
            "CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=4 TYPE=RS\nGROUPS=h1 POWER=p1\n");
  Config c = load();
  ASSERT_NE(c.table("CKPT"), nullptr);
  EXPECT_EQ(c.table("CKPT")->size(), 2u);

  app(c, "CKPT=0 TYPE=PARTNER");
  EXPECT_EQ(c.table("CKPT")->size(), 1u);  // system CKPT=1 no longer applies
  EXPECT_EQ(c.table("CKPT")->at({"0"})->value_or("TYPE", ""), "PARTNER");
  EXPECT_EQ(c.source("CKPT", "0")->layer, Layer::app);
  EXPECT_EQ(c.source("GROUPS", "h1")->layer, Layer::system_file);  // other tables unaffected
  EXPECT_EQ(c.source("GROUPS", "h1")->line, 3);
  EXPECT_FALSE(c.source("CKPT", "1"));

  app(c, "CKPT=");
  EXPECT_EQ(c.table("CKPT")->size(), 2u);
}

TEST_F(ConfigTest, UserFileFromScrConfFile) {
  std::string named = dir.write("mine.conf", "SCR_CACHE_SIZE=5\n");
  dir.write(".scrconf", "SCR_CACHE_SIZE=9\n");
  fake.vars["SCR_CONF_FILE"] = named;
  Config c = load();
  EXPECT_EQ(c.user_file(), named);
  EXPECT_EQ(*c.get("SCR_CACHE_SIZE"), "5");

  fake.vars["SCR_CONF_FILE"] = dir.file("missing.conf");
  EXPECT_TRUE(FailsWith(Config::load(fake.sources(dir)).status(), {"missing.conf"}));
}

TEST_F(ConfigTest, ScrConfFileFromTheSystemFile) {
  std::string named = dir.write("site_user.conf", "SCR_DEBUG=2\n");
  dir.write("system.conf", "SCR_CONF_FILE=" + named + "\n");
  Config c = load();
  EXPECT_EQ(c.user_file(), named);
  EXPECT_EQ(*c.get("SCR_DEBUG"), "2");
}

TEST_F(ConfigTest, UserFileFollowsThePrefix) {
  TempDir other;
  other.write(".scrconf", "SCR_CACHE_SIZE=6\n");
  dir.write(".scrconf", "SCR_CACHE_SIZE=2\n");
  Config c = load();
  EXPECT_EQ(*c.get("SCR_CACHE_SIZE"), "2");

  app(c, "SCR_PREFIX=" + other.path());  // re-reads <new prefix>/.scrconf
  EXPECT_EQ(c.user_file(), other.file(".scrconf"));
  EXPECT_EQ(*c.get("SCR_CACHE_SIZE"), "6");

  fake.vars["SCR_PREFIX"] = dir.path();  // the environment outranks SCR_Config
  ASSERT_TRUE(c.reload().ok());
  EXPECT_EQ(*c.get("SCR_CACHE_SIZE"), "2");
}

TEST_F(ConfigTest, BadUserFileNamedBySetPrefixLeavesConfigUnchanged) {
  TempDir other;
  other.write(".scrconf", "SCR_CACHE_SIZE=zero\n");
  Config c = load();
  auto r = c.apply_app_config("SCR_PREFIX=" + other.path());
  EXPECT_TRUE(FailsWith(r.status(), {".scrconf:1:", "SCR_CACHE_SIZE=zero"}));
  EXPECT_EQ(*c.get("SCR_PREFIX"), dir.path());
}

TEST_F(ConfigTest, EnvironmentLayer) {
  fake.vars["SCR_COPY_TYPE"] = "partner";
  fake.vars["SCR_JOB_ID"] = "";  // empty counts as unset
  fake.vars["SCR_FLUSH_ASYNCH"] = "1";
  fake.vars["SCRATCH"] = "/p";
  Config c = load();
  EXPECT_EQ(*c.get("SCR_COPY_TYPE"), "PARTNER");
  EXPECT_FALSE(c.get("SCR_JOB_ID"));
  EXPECT_EQ(c.unknown_env_names(), std::vector<std::string>{"SCR_FLUSH_ASYNCH"});

  fake.vars["SCR_CACHE_SIZE"] = "abc";
  EXPECT_TRUE(FailsWith(Config::load(fake.sources(dir)).status(),
                        {"environment", "SCR_CACHE_SIZE=abc: not an integer"}));
}

// Keys SCR++ does not know never stop a job: a file's are kept with their
// line (SCR_Init warns about each), and a query looks them up like SCR does,
// the environment first.
TEST_F(ConfigTest, UnknownKeysInFilesAreKeptAndNamed) {
  std::string user =
      dir.write(".scrconf", "SCR_FLUSH=2\nSCR_CACHE_SIZ=2\nCKPT=0 TYPE=XOR COLOR=red\n");
  dir.write("system.conf", "SITE_KEY=site\n");
  fake.vars["APP_FROM_ENV"] = "env";
  Config c = load();
  EXPECT_EQ(*c.get("SCR_FLUSH"), "2");
  EXPECT_EQ(*c.get("SCR_CACHE_SIZE"), "1");  // the typo set nothing known
  EXPECT_EQ(*c.user_value("SCR_CACHE_SIZ"), "2");
  EXPECT_EQ(*c.user_value("SITE_KEY"), "site");
  EXPECT_EQ(*c.user_value("APP_FROM_ENV"), "env");
  EXPECT_EQ(c.user_value("NOWHERE"), std::nullopt);
  auto answer = c.apply_app_config("CKPT=0 COLOR");
  ASSERT_TRUE(answer.ok()) << answer.status().to_string();
  EXPECT_EQ(*answer, "red");
  std::vector<std::string> lines = c.unknown_file_keys();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find(user + ":2: unknown key 'SCR_CACHE_SIZ' (did you mean SCR_CACHE_SIZE?)"),
            std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find(user + ":3: CKPT=0: unknown item 'COLOR'"), std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find("system.conf:1: unknown key 'SITE_KEY'"), std::string::npos) << lines[2];
}

TEST_F(ConfigTest, SystemFileErrorsAndAbsence) {
  fake.vars["SCR_SYSTEM_CONF_FILE"] = dir.file("absent.conf");
  EXPECT_TRUE(Config::load(fake.sources(dir)).ok());
  std::string sys = dir.write("sys.conf", "SCR_FLUSH=2\nSCR_COPY_TYPE=FOO\n");
  fake.vars["SCR_SYSTEM_CONF_FILE"] = sys;
  EXPECT_TRUE(FailsWith(Config::load(fake.sources(dir)).status(),
                        {sys + ":2:", "SCR_COPY_TYPE=FOO"}));
}

TEST_F(ConfigTest, TypedGetters) {
  fake.vars["SCR_FLUSH_ASYNC_BW"] = "64MB";
  fake.vars["SCR_HALT_SECONDS"] = "90.7";
  fake.vars["SCR_CHECKPOINT_OVERHEAD"] = "2.5";
  fake.vars["SCR_SIM_NODES"] = "n0,n1";
  Config c = load();
  EXPECT_EQ(*c.get_int("SCR_FLUSH"), 10);
  EXPECT_EQ(*c.get_int("SCR_FETCH"), 1);
  EXPECT_EQ(*c.get_bool("SCR_CRC_ON_FLUSH"), true);
  EXPECT_EQ(*c.get_bool("SCR_CACHE_BYPASS"), true);  // SCR 3.1's default
  EXPECT_EQ(*c.get_bytes("SCR_PIECE_SIZE"), 1u << 20);
  EXPECT_EQ(*c.get_bytes("SCR_FLUSH_ASYNC_BW"), 64u << 20);
  EXPECT_EQ(*c.get_bytes("SCR_CACHE_SIZE"), 1u);
  EXPECT_DOUBLE_EQ(*c.get_double("SCR_HALT_SECONDS"), 90.7);
  EXPECT_EQ(*c.get_int("SCR_HALT_SECONDS"), 90);
  EXPECT_DOUBLE_EQ(*c.get_double("SCR_CHECKPOINT_OVERHEAD"), 2.5);
  EXPECT_EQ(*c.get_list("SCR_SIM_NODES"), (std::vector<std::string>{"n0", "n1"}));
  EXPECT_EQ(*c.get_string("SCR_CACHE_BASE"), "/dev/shm");

  EXPECT_EQ(c.get_string("SCR_JOB_ID").status().code(), Errc::not_found);
  EXPECT_TRUE(FailsWith(c.get_bool("SCR_PREFIX").status(), {"SCR_PREFIX is a path"}));
  EXPECT_TRUE(FailsWith(c.get_int("SCR_COPY_TYPE").status(), {"SCR_COPY_TYPE"}));
  EXPECT_TRUE(FailsWith(c.get_int("SCR_NOPE").status(), {"unknown key 'SCR_NOPE'"}));
}

TEST_F(ConfigTest, TreeRoundTripThroughTheCodec) {
  dir.write("system.conf", "SCR_CACHE_SIZE=7\nSTORE=/ssd COUNT=2\nGROUPS=h1 POWER=p1\n");
  dir.write(".scrconf", "\nSCR_FLUSH=2\nCKPT=0 TYPE=RS SET_SIZE=4\nCKPT=1 INTERVAL=3\n");
  fake.vars["SCR_DEBUG"] = "2";
  Config c = load();
  app(c, "SCR_JOB_NAME=round trip");
  app(c, "CKPT=5 TYPE=SINGLE");

  auto bytes = kv::encode(c.to_tree());
  auto tree = kv::decode(bytes);
  ASSERT_TRUE(tree.ok()) << tree.status().to_string();
  auto back = Config::from_tree(*tree);
  ASSERT_TRUE(back.ok()) << back.status().to_string();

  EXPECT_EQ(back->to_tree(), c.to_tree());
  for (const auto& p : all_params()) {
    EXPECT_EQ(back->get(p.name), c.get(p.name)) << p.name;
    auto a = c.source(p.name), b = back->source(p.name);
    ASSERT_EQ(a.has_value(), b.has_value()) << p.name;
    if (a) {
      EXPECT_EQ(a->describe(), b->describe()) << p.name;
    }
  }
  EXPECT_EQ(back->source("CKPT", "1")->describe(), "user config file " + dir.file(".scrconf") + ":4");
  EXPECT_EQ(*back->table("CKPT"), *c.table("CKPT"));
  EXPECT_EQ(back->user_file(), c.user_file());
  EXPECT_EQ(back->reload().code(), Errc::bad_state);  // no sources on other ranks
}

TEST_F(ConfigTest, FromTreeRejectsDamage) {
  Config c = load();
  kv::Tree bad_value = c.to_tree();
  bad_value.at({"LAYER", "DEFAULT", "VALUE"})->set("SCR_FLUSH", "abc");
  EXPECT_TRUE(FailsWith(Config::from_tree(bad_value).status(), {"SCR_FLUSH=abc"}));

  kv::Tree unknown = c.to_tree();
  unknown.at({"LAYER", "APP", "VALUE"})->set("SCR_BOGUS", "1");
  EXPECT_TRUE(FailsWith(Config::from_tree(unknown).status(), {"SCR_BOGUS"}));

  kv::Tree missing = c.to_tree();
  missing.child("LAYER").erase("USER");
  EXPECT_TRUE(FailsWith(Config::from_tree(missing).status(), {"USER"}));
}

}  // namespace
}  // namespace scr::rt
