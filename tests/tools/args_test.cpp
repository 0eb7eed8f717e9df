// The option parser every tool uses: forms of values, separators, errors
// that name the option, and the --help text built from the same table.
#include "tools/common/args.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using scr::tools::Args;
using scr::tools::OptionSpec;

const OptionSpec kSpecs[] = {
    {"--prefix", OptionSpec::value, "DIR", "the prefix"},
    {"--json", OptionSpec::flag, "", "JSON"},
    {"--immediate", OptionSpec::optional_value, "REASON", "halt now"},
};

scr::Result<Args> parse(std::vector<const char*> words) {
  words.insert(words.begin(), "tool");
  return scr::tools::parse_args(kSpecs, static_cast<int>(words.size()), words.data());
}

TEST(Args, ValuesFlagsAndPositionals) {
  auto a = parse({"--prefix", "/p", "--json", "file", "--prefix=/q"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_TRUE(a->has("--json"));
  EXPECT_EQ("/q", a->value("--prefix").value_or(""));  // the last one wins
  EXPECT_EQ(std::vector<std::string>{"file"}, a->positional());
  EXPECT_FALSE(a->saw_separator());
}

TEST(Args, OptionalValueIsOnlyTakenAfterAnEqualsSign) {
  auto a = parse({"--immediate", "/p/run1"});
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->has("--immediate"));
  EXPECT_FALSE(a->value("--immediate").has_value());
  EXPECT_EQ(std::vector<std::string>{"/p/run1"}, a->positional());  // a directory, as in SCR
  a = parse({"--immediate=node maintenance"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ("node maintenance", a->value("--immediate").value_or(""));
}

const OptionSpec kShort[] = {
    {"--checkpoints", OptionSpec::value, "N", "after N", "-c"},
    {"--list", OptionSpec::flag, "", "list", "-l"},
    {"--verbose", OptionSpec::flag, "", "more", "-v"},
    {"--unset-reason", OptionSpec::flag, "", "unset"},
};

scr::Result<Args> parse_short(std::vector<const char*> words, bool stop = false) {
  words.insert(words.begin(), "tool");
  return scr::tools::parse_args(kShort, static_cast<int>(words.size()), words.data(), stop);
}

TEST(Args, ShortFormsAreRecordedUnderTheLongName) {
  auto a = parse_short({"-c", "2", "-l", "/p"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ("2", a->value("--checkpoints").value_or(""));
  EXPECT_TRUE(a->has("--list"));
  EXPECT_EQ(std::vector<std::string>{"/p"}, a->positional());
  a = parse_short({"-c3", "-lv"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ("3", a->value("--checkpoints").value_or(""));
  EXPECT_TRUE(a->has("--list"));
  EXPECT_TRUE(a->has("--verbose"));
  a = parse_short({"-lc", "4"});
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ("4", a->value("--checkpoints").value_or(""));
  a = parse_short({"-lx"});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(std::string::npos, a.status().message().find("unknown option '-x' in '-lx'"));
  a = parse_short({"-q"});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(std::string::npos, a.status().message().find("unknown option '-q'"));
}

TEST(Args, StopAtPositionalLeavesTheRestAlone) {
  auto a = parse_short({"-l", "srun", "-n", "4", "-l"}, true);
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ((std::vector<std::string>{"srun", "-n", "4", "-l"}), a->positional());
  EXPECT_EQ(1u, a->given().size());
}

TEST(Args, HelpShowsShortForms) {
  EXPECT_EQ(
      "  -c, --checkpoints N  after N\n"
      "  -l, --list           list\n"
      "  -v, --verbose        more\n"
      "      --unset-reason   unset\n",
      scr::tools::options_help(kShort));
}

TEST(Args, EverythingAfterTheSeparatorIsPositional) {
  auto a = parse({"--json", "--", "-n", "4", "--prefix", "x"});
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->saw_separator());
  EXPECT_EQ((std::vector<std::string>{"-n", "4", "--prefix", "x"}), a->positional());
  EXPECT_FALSE(a->has("--prefix"));
}

TEST(Args, ErrorsNameTheOption) {
  auto a = parse({"--bogus"});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(std::string::npos, a.status().message().find("unknown option '--bogus'"));
  a = parse({"--prefix"});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(std::string::npos, a.status().message().find("--prefix needs a value"));
  a = parse({"--json=yes"});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(std::string::npos, a.status().message().find("--json takes no value"));
  a = parse({"--prefix="});
  ASSERT_FALSE(a.ok());
}

TEST(Args, HelpListsEveryOptionAligned) {
  std::string help = scr::tools::options_help(kSpecs);
  EXPECT_EQ(
      "  --prefix DIR          the prefix\n"
      "  --json                JSON\n"
      "  --immediate[=REASON]  halt now\n",
      help);
}

TEST(Args, IntValuesAreCheckedWithTheOptionNamed) {
  EXPECT_EQ(5, *scr::tools::int_value("--n", "5", 1));
  auto bad = scr::tools::int_value("--n", "x", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ("--n: 'x' is not a whole number", bad.status().message());
  EXPECT_FALSE(scr::tools::int_value("--n", "0", 1).ok());
  EXPECT_FALSE(scr::tools::int_value("--n", "7", 1, 6).ok());
}

}  // namespace
