// Config file and line syntax: comments, blanks, spaces around '=', $VAR
// expansion, multi-item lines, and errors that name file, line and key.
#include <gtest/gtest.h>

#include "config_test_util.hpp"
#include "runtime/config/config_expand.hpp"
#include "runtime/config/config_file.hpp"
#include "runtime/config/config_line.hpp"

namespace scr::rt {
namespace {

using testing::FailsWith;
using testing::TempDir;

const char* fake_env(const char* name) {
  std::string_view n(name);
  if (n == "SCRATCH") return "/p/scratch";
  if (n == "JOB") return "42";
  if (n == "EMPTY") return "";
  return nullptr;
}

Result<ConfigLayer> parse(std::string_view text) {
  return parse_config_text(text, Layer::system_file, "test.conf", fake_env);
}

TEST(ConfigLine, ShapesOfLines) {
  auto q = parse_config_line("SCR_FLUSH");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->key, "SCR_FLUSH");
  EXPECT_FALSE(q->value);

  auto set = parse_config_line("  SCR_JOB_NAME =  my job  ");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(*set->value, "my job");
  EXPECT_FALSE(set->is_table);

  auto unset = parse_config_line("SCR_FLUSH=");
  ASSERT_TRUE(unset.ok());
  EXPECT_EQ(*unset->value, "");

  auto t = parse_config_line("CKPT=0 TYPE = RS SET_SIZE=8\tSET_FAILURES=2");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->is_table);
  EXPECT_EQ(*t->value, "0");
  ASSERT_EQ(t->items.size(), 3u);
  EXPECT_EQ(t->items[0].name, "TYPE");
  EXPECT_EQ(*t->items[0].value, "RS");
  EXPECT_EQ(*t->items[2].value, "2");

  auto item_query = parse_config_line("CKPT=0 TYPE");
  ASSERT_TRUE(item_query.ok());
  ASSERT_EQ(item_query->items.size(), 1u);
  EXPECT_FALSE(item_query->items[0].value);
}

TEST(ConfigLine, MalformedShapes) {
  EXPECT_TRUE(FailsWith(parse_config_line("SCR_FLUSH 10").status(), {"expected '='", "SCR_FLUSH"}));
  EXPECT_TRUE(FailsWith(parse_config_line("=10").status(), {"expected a key"}));
  EXPECT_TRUE(FailsWith(parse_config_line("CKPT=0 TY-PE=RS").status(), {"CKPT=0", "TY"}));
  EXPECT_TRUE(FailsWith(parse_config_line("CKPT=0 =RS").status(), {"CKPT=0", "item name"}));
}

TEST(ConfigExpand, PlainBracedAndLiteralDollar) {
  EXPECT_EQ(*expand_vars("$SCRATCH/ckpt", fake_env), "/p/scratch/ckpt");
  EXPECT_EQ(*expand_vars("${SCRATCH}_x/$JOB", fake_env), "/p/scratch_x/42");
  EXPECT_EQ(*expand_vars("a$EMPTY.b", fake_env), "a.b");
  EXPECT_EQ(*expand_vars("cost$ 5 $", fake_env), "cost$ 5 $");
  EXPECT_TRUE(FailsWith(expand_vars("$NOPE/x", fake_env).status(), {"undefined variable 'NOPE'"}));
  EXPECT_TRUE(FailsWith(expand_vars("${NOPE}", fake_env).status(), {"'NOPE'"}));
  EXPECT_TRUE(FailsWith(expand_vars("${SCRATCH", fake_env).status(), {"unterminated"}));
  EXPECT_TRUE(FailsWith(expand_vars("${1x}", fake_env).status(), {"bad variable name"}));
}

TEST(ConfigFile, CommentsBlanksAndValues) {
  auto layer = parse(
      "# SCR++ test configuration\n"
      "\n"
      "SCR_CACHE_SIZE = 3   # keep three\n"
      "   \t\n"
      "SCR_COPY_TYPE=rs\r\n"
      "SCR_PREFIX=$SCRATCH/run${JOB}\n"
      "SCR_CACHE_SIZE=4\n");
  ASSERT_TRUE(layer.ok()) << layer.status().to_string();
  EXPECT_EQ(*layer->param("SCR_CACHE_SIZE"), "4");  // a later line wins
  EXPECT_EQ(layer->line_of("SCR_CACHE_SIZE"), 7);
  EXPECT_EQ(*layer->param("SCR_COPY_TYPE"), "RS");
  EXPECT_EQ(*layer->param("SCR_PREFIX"), "/p/scratch/run42");
  EXPECT_EQ(layer->line_of("SCR_PREFIX"), 6);
  EXPECT_EQ(layer->file(), "test.conf");
}

TEST(ConfigFile, MultiItemLines) {
  auto layer = parse(
      "CKPT=0 TYPE=RS SET_SIZE=8 SET_FAILURES=2 STORE=/dev/shm GROUP=NODE\n"
      "STORE=/dev/shm GROUP=NODE COUNT=1\n"
      "STORE=$SCRATCH/ssd COUNT=3   # expanded head\n"
      "GROUPS=host1 POWER=psu1\n"
      "GROUPS=host2 POWER=psu1 SWITCH=sw0\n"
      "CKPT=0 INTERVAL=1\n"
      "CKPT=1\n");
  ASSERT_TRUE(layer.ok()) << layer.status().to_string();
  const kv::Tree* ckpt = layer->table("CKPT");
  ASSERT_NE(ckpt, nullptr);
  EXPECT_EQ(ckpt->at({"0"})->value_or("TYPE", ""), "RS");
  EXPECT_EQ(ckpt->at({"0"})->value_or("INTERVAL", ""), "1");  // merged into entry 0
  EXPECT_EQ(ckpt->at({"0"})->value_or("SET_FAILURES", ""), "2");
  ASSERT_NE(ckpt->get("1"), nullptr);
  EXPECT_TRUE(ckpt->get("1")->empty());
  EXPECT_EQ(layer->line_of("CKPT", "0"), 1);
  EXPECT_EQ(layer->line_of("CKPT", "1"), 7);
  const kv::Tree* store = layer->table("STORE");
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->at({"/p/scratch/ssd"})->value_or("COUNT", ""), "3");
  EXPECT_EQ(store->at({"/dev/shm"})->value_or("GROUP", ""), "NODE");
  const kv::Tree* groups = layer->table("GROUPS");
  ASSERT_NE(groups, nullptr);
  EXPECT_EQ(groups->at({"host2"})->value_or("SWITCH", ""), "sw0");
}

TEST(ConfigFile, ErrorsNameFileLineAndKey) {
  struct Case {
    const char* text;
    std::vector<std::string> needles;
  };
  const Case cases[] = {
      {"SCR_FLUSH=1\nSCR_CACHE_SIZE=abc\n", {"test.conf:2:", "SCR_CACHE_SIZE=abc: not an integer"}},
      {"CKPT=0 TYPE=FOO\n", {"test.conf:1:", "CKPT=0 TYPE=FOO", "must be one of"}},
      {"CKPT=x TYPE=XOR\n", {"test.conf:1:", "CKPT=x", "not an integer"}},
      {"STORE=/a COUNT=0\n", {"test.conf:1:", "STORE=/a COUNT=0"}},
      {"GROUPS=host1 WORLD=w\n", {"test.conf:1:", "WORLD", "built in"}},
      {"SCR_PREFIX=$NOPE/x\n", {"test.conf:1:", "SCR_PREFIX", "undefined variable 'NOPE'"}},
      {"SCR_FLUSH\n", {"test.conf:1:", "SCR_FLUSH", "missing '=VALUE'"}},
      {"SCR_FLUSH=\n", {"test.conf:1:", "SCR_FLUSH", "empty value"}},
      {"CKPT=0 TYPE\n", {"test.conf:1:", "CKPT=0 TYPE", "missing '=VALUE'"}},
      {"SCR_SYSTEM_CONF_FILE=/x\n", {"test.conf:1:", "SCR_SYSTEM_CONF_FILE", "environment"}},
      {"SCR_JOB_NAME=$EMPTY\n", {"test.conf:1:", "SCR_JOB_NAME", "empty value"}},
      {"SCR_FLUSH 3\n", {"test.conf:1:", "SCR_FLUSH"}},
  };
  for (const auto& c : cases) {
    Status st = parse(c.text).status();
    EXPECT_FALSE(st.ok()) << c.text;
    for (const auto& n : c.needles)
      EXPECT_NE(st.message().find(n), std::string::npos)
          << "input: " << c.text << "message: " << st.message() << "\nlacks: " << n;
  }
}

TEST(ConfigFile, UnknownKeysAndItemsAreKeptWithTheirLines) {
  auto layer = parse("\n\n\nSCR_FOO=1\n# c\nCKPT=0 TYPE=XOR COLOR=red\n");
  ASSERT_TRUE(layer.ok()) << layer.status().to_string();
  EXPECT_EQ(layer->unknown_param("SCR_FOO"), "1");
  EXPECT_EQ(layer->param("SCR_FOO"), std::nullopt);
  EXPECT_EQ(layer->table("CKPT")->at({"0"})->value_or("COLOR", ""), "red");
  auto unknown = layer->unknown_keys();
  ASSERT_EQ(unknown.size(), 2u);
  EXPECT_EQ(unknown[0].line, 4);
  EXPECT_NE(unknown[0].message.find("unknown key 'SCR_FOO'"), std::string::npos);
  EXPECT_EQ(unknown[1].line, 6);
  EXPECT_NE(unknown[1].message.find("CKPT=0: unknown item 'COLOR'"), std::string::npos);
}

TEST(ConfigFile, ReadThroughEnvMissingAndPresent) {
  TempDir dir;
  auto missing = read_config_file(io::Env::posix(), dir.file("none.conf"), Layer::user_file, true,
                                  fake_env);
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());

  auto required = read_config_file(io::Env::posix(), dir.file("none.conf"), Layer::user_file,
                                   false, fake_env);
  EXPECT_TRUE(FailsWith(required.status(), {"none.conf"}));

  std::string path = dir.write("scr.conf", "SCR_FLUSH=5\nSCR_CACHE_SIZE=-2\n");
  auto bad = read_config_file(io::Env::posix(), path, Layer::user_file, true, fake_env);
  EXPECT_TRUE(FailsWith(bad.status(), {path + ":2:", "SCR_CACHE_SIZE=-2"}));
}

}  // namespace
}  // namespace scr::rt
