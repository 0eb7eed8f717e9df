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

TEST(Args, OptionalValueTakesTheNextWordUnlessItIsAnOption) {
  auto a = parse({"--immediate", "--json"});
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->has("--immediate"));
  EXPECT_FALSE(a->value("--immediate").has_value());
  a = parse({"--immediate", "node maintenance"});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ("node maintenance", a->value("--immediate").value_or(""));
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
      "  --immediate [REASON]  halt now\n",
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
