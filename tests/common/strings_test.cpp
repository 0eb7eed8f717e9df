#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/strings.hpp"

namespace {

namespace str = scr::str;
using scr::Errc;
using V = std::vector<std::string>;

TEST(Strings, Trim) {
  EXPECT_EQ(str::trim("  a b \t\n"), "a b");
  EXPECT_EQ(str::trim(""), "");
  EXPECT_EQ(str::trim(" \t "), "");
  EXPECT_EQ(str::trim("x"), "x");
}

TEST(Strings, Split) {
  EXPECT_EQ(str::split("a,b,,c,", ','), (V{"a", "b", "c"}));
  EXPECT_EQ(str::split("a,b,,c,", ',', false), (V{"a", "b", "", "c", ""}));
  EXPECT_EQ(str::split("", ','), V{});
  EXPECT_EQ(str::split("", ',', false), V{""});
  EXPECT_EQ(str::split(",", ',', false), (V{"", ""}));
  EXPECT_EQ(str::split("/a/b", '/'), (V{"a", "b"}));
  EXPECT_EQ(str::split("abc", ','), V{"abc"});
}

TEST(Strings, SplitWhitespace) {
  EXPECT_EQ(str::split_ws("  STORE=/dev/shm \t COUNT=2  "), (V{"STORE=/dev/shm", "COUNT=2"}));
  EXPECT_EQ(str::split_ws(""), V{});
  EXPECT_EQ(str::split_ws(" \t "), V{});
  EXPECT_EQ(str::split_ws("one"), V{"one"});
}

TEST(Strings, CaseAndAffixes) {
  EXPECT_EQ(str::to_upper("MiB-x1"), "MIB-X1");
  EXPECT_TRUE(str::starts_with("scr.1234", "scr."));
  EXPECT_FALSE(str::starts_with("sc", "scr."));
  EXPECT_TRUE(str::starts_with("abc", ""));
  EXPECT_TRUE(str::ends_with("file.redset", ".redset"));
  EXPECT_FALSE(str::ends_with("redset", ".redset"));
  EXPECT_TRUE(str::ends_with("abc", ""));
}

TEST(ParseInt, Accepts) {
  EXPECT_EQ(*str::parse_int("0"), 0);
  EXPECT_EQ(*str::parse_int("-7"), -7);
  EXPECT_EQ(*str::parse_int(" 42 "), 42);
  EXPECT_EQ(*str::parse_int("007"), 7);
  EXPECT_EQ(*str::parse_int("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(*str::parse_int("-9223372036854775808"), std::numeric_limits<int64_t>::min());
}

TEST(ParseInt, Rejects) {
  for (const char* bad : {"", " ", "abc", "12abc", "1.5", "0x10", "1 2", "-", "--1", "1e3",
                          "9223372036854775808", "-9223372036854775809"}) {
    auto r = str::parse_int(bad);
    EXPECT_FALSE(r.ok()) << "'" << bad << "' parsed as " << (r.ok() ? *r : 0);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Errc::invalid_argument) << bad;
    }
  }
}

TEST(ParseBytes, Accepts) {
  EXPECT_EQ(*str::parse_bytes("4096"), 4096u);
  EXPECT_EQ(*str::parse_bytes("0"), 0u);
  EXPECT_EQ(*str::parse_bytes("64KB"), 64u * 1024);
  EXPECT_EQ(*str::parse_bytes("64kb"), 64u * 1024);
  EXPECT_EQ(*str::parse_bytes("1MB"), 1u << 20);
  EXPECT_EQ(*str::parse_bytes("1 MiB"), 1u << 20);
  EXPECT_EQ(*str::parse_bytes("2GiB"), 2ull << 30);
  EXPECT_EQ(*str::parse_bytes("2g"), 2ull << 30);
  EXPECT_EQ(*str::parse_bytes("1T"), 1ull << 40);
  EXPECT_EQ(*str::parse_bytes("1.5K"), 1536u);
  EXPECT_EQ(*str::parse_bytes(" 8 B "), 8u);
  EXPECT_EQ(*str::parse_bytes(".5K"), 512u);
  EXPECT_EQ(*str::parse_bytes("2."), 2u);
}

TEST(ParseBytes, Rejects) {
  for (const char* bad : {"", "MB", "-1", "-1MB", "1.2.3", "1.2.3MB", ".", ".K", "5 XB", "1e3",
                          "12 34", "1MBs", "99999999999T", "0x10"}) {
    auto r = str::parse_bytes(bad);
    EXPECT_FALSE(r.ok()) << "'" << bad << "' parsed as " << (r.ok() ? *r : 0);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Errc::invalid_argument) << bad;
      EXPECT_NE(r.status().message().find(str::trim(bad)), std::string::npos)
          << "message should quote the input: " << r.status().message();
    }
  }
}

TEST(ParseDouble, Accepts) {
  EXPECT_DOUBLE_EQ(*str::parse_double("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(*str::parse_double(" 0 "), 0.0);
  EXPECT_DOUBLE_EQ(*str::parse_double("1e3"), 1000.0);
  EXPECT_DOUBLE_EQ(*str::parse_double(".25"), 0.25);
  EXPECT_DOUBLE_EQ(*str::parse_double("+2"), 2.0);
}

// The header promises a non-negative decimal number of seconds.
TEST(ParseDouble, Rejects) {
  for (const char* bad : {"", "abc", "1.5s", "inf", "-inf", "nan", "1e999", "-1", "-0.5",
                          "0x10", "0x1p3", "1,5"}) {
    auto r = str::parse_double(bad);
    EXPECT_FALSE(r.ok()) << "'" << bad << "' parsed as " << (r.ok() ? *r : 0.0);
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Errc::invalid_argument) << bad;
    }
  }
}

TEST(ParseBool, AcceptsAndRejects) {
  for (const char* t : {"1", "yes", "YES", "true", "True", "on", " ON "})
    EXPECT_TRUE(*str::parse_bool(t)) << t;
  for (const char* f : {"0", "no", "false", "FALSE", "off"}) EXPECT_FALSE(*str::parse_bool(f)) << f;
  for (const char* bad : {"", "2", "y", "enable", "10"}) {
    auto r = str::parse_bool(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Errc::invalid_argument);
    }
  }
}

TEST(FormatBytes, Units) {
  EXPECT_EQ(str::format_bytes(0), "0 B");
  EXPECT_EQ(str::format_bytes(1023), "1023 B");
  EXPECT_EQ(str::format_bytes(1024), "1.0 KiB");
  EXPECT_EQ(str::format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(str::format_bytes(1ull << 20), "1.0 MiB");
  EXPECT_EQ(str::format_bytes(3ull << 30), "3.0 GiB");
  EXPECT_EQ(str::format_bytes(2048ull << 40), "2048.0 TiB");
}

// Rounding must not print "1024.0 KiB" for a value just below 1 MiB.
TEST(FormatBytes, RoundsUpToNextUnit) {
  EXPECT_EQ(str::format_bytes((1ull << 20) - 1), "1.0 MiB");
  EXPECT_EQ(str::format_bytes((1ull << 30) - 1), "1.0 GiB");
  EXPECT_EQ(str::format_bytes(1024 * 1023 + 900), "1023.9 KiB");
}

}  // namespace

TEST(Strings, PrintableEscapesControlCharactersOnly) {
  EXPECT_EQ(str::printable("step.10"), "step.10");
  EXPECT_EQ(str::printable("a\nb"), "a\\x0ab");
  EXPECT_EQ(str::printable(std::string("\x1b[2J\x7f", 5)), "\\x1b[2J\\x7f");
  EXPECT_EQ(str::printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 stays
  EXPECT_EQ(str::printable(std::string("\0", 1)), "\\x00");
}
