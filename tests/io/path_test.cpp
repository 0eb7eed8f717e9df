#include <gtest/gtest.h>

#include <string>

#include "io/path.hpp"

namespace {

namespace path = scr::io::path;

TEST(Path, Normalize) {
  EXPECT_EQ(path::normalize("/a//b/./c/"), "/a/b/c");
  EXPECT_EQ(path::normalize("/a/b/../c"), "/a/c");
  EXPECT_EQ(path::normalize("/../x"), "/x");  // ".." at the root stays there
  EXPECT_EQ(path::normalize("/.."), "/");
  EXPECT_EQ(path::normalize("/"), "/");
  EXPECT_EQ(path::normalize("//"), "/");
  EXPECT_EQ(path::normalize(""), ".");
  EXPECT_EQ(path::normalize("."), ".");
  EXPECT_EQ(path::normalize("./"), ".");
  EXPECT_EQ(path::normalize("a/.."), ".");
  EXPECT_EQ(path::normalize("../a"), "../a");
  EXPECT_EQ(path::normalize("../../a/../b"), "../../b");
  EXPECT_EQ(path::normalize("a/../../b"), "../b");
}

// What normalize would leave unchanged: the held-directory lookups accept
// only such names below the directory.
TEST(Path, IsNormal) {
  for (const char* p : {"a", "a/b", "/a/b", "many.1/r0/d0/f57", "a.b/..c"}) EXPECT_TRUE(path::is_normal(p)) << p;
  for (const char* p : {"", "/", "a/", "a//b", "./a", "a/.", "..", "../a", "a/../b"})
    EXPECT_FALSE(path::is_normal(p)) << p;
}

TEST(Path, JoinDirnameBasename) {
  EXPECT_EQ(path::join("/a", "b"), "/a/b");
  EXPECT_EQ(path::join("/a/", "b"), "/a/b");
  EXPECT_EQ(path::join("", "b"), "b");
  EXPECT_EQ(path::join("/a", ""), "/a");
  EXPECT_EQ(path::join("/a", "/etc"), "/etc");  // absolute right side wins
  EXPECT_EQ(path::dirname("/a/b/c"), "/a/b");
  EXPECT_EQ(path::dirname("/a"), "/");
  EXPECT_EQ(path::dirname("c"), ".");
  EXPECT_EQ(path::dirname("/a/b/c/"), "/a/b");
  EXPECT_EQ(path::basename("/a/b/c"), "c");
  EXPECT_EQ(path::basename("c"), "c");
  EXPECT_EQ(path::basename("/a/b/"), "b");
  EXPECT_TRUE(path::is_absolute("/x"));
  EXPECT_FALSE(path::is_absolute("x"));
  EXPECT_FALSE(path::is_absolute(""));
  EXPECT_EQ(path::absolute("b/../c", "/a"), "/a/c");
  EXPECT_EQ(path::absolute("/x/./y", "/a"), "/x/y");
}

TEST(Path, IsWithinRejectsEscapes) {
  EXPECT_TRUE(path::is_within("/p", "/p"));
  EXPECT_TRUE(path::is_within("/p", "/p/"));
  EXPECT_TRUE(path::is_within("/p", "/p/a/b"));
  EXPECT_TRUE(path::is_within("/p/", "/p/a"));
  EXPECT_TRUE(path::is_within("/p", "/p/a/../b"));
  EXPECT_TRUE(path::is_within("/p", "/p/./a"));
  EXPECT_FALSE(path::is_within("/p", "/p/../q"));
  EXPECT_FALSE(path::is_within("/p", "/p/a/../../q"));
  EXPECT_FALSE(path::is_within("/p", "/p/.."));
  EXPECT_FALSE(path::is_within("/p", "/pq"));  // prefix of the name is not containment
  EXPECT_FALSE(path::is_within("/p", "/"));
  EXPECT_FALSE(path::is_within("/p", "p/a"));  // relative is not under an absolute base
  EXPECT_FALSE(path::is_within("/p/a", "/p"));
  EXPECT_TRUE(path::is_within("/", "/anything/at/all"));
  EXPECT_TRUE(path::is_within("/", "/../x"));  // cannot climb above the root
  EXPECT_FALSE(path::is_within("/", "x"));
}

TEST(Path, RelativeTo) {
  EXPECT_EQ(*path::relative_to("/p", "/p/a/b"), "a/b");
  EXPECT_EQ(*path::relative_to("/p/", "/p//a/./b/"), "a/b");
  EXPECT_EQ(*path::relative_to("/p", "/p"), ".");
  EXPECT_EQ(*path::relative_to("/", "/x/y"), "x/y");
  EXPECT_EQ(*path::relative_to("/p", "/p/a/../c"), "c");
  auto out = path::relative_to("/p", "/p/../etc/passwd");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), scr::Errc::invalid_argument);
  EXPECT_NE(out.status().message().find("/etc/passwd"), std::string::npos);
  EXPECT_FALSE(path::relative_to("/p", "/pq/a").ok());
}

TEST(Path, PlainName) {
  EXPECT_TRUE(path::is_plain_name("ckpt.1"));
  EXPECT_TRUE(path::is_plain_name("..a"));
  EXPECT_TRUE(path::is_plain_name(".hidden"));
  EXPECT_FALSE(path::is_plain_name(""));
  EXPECT_FALSE(path::is_plain_name("."));
  EXPECT_FALSE(path::is_plain_name(".."));
  EXPECT_FALSE(path::is_plain_name("a/b"));
  EXPECT_FALSE(path::is_plain_name("/"));
  EXPECT_FALSE(path::is_plain_name(std::string("a\0b", 3)));
  EXPECT_FALSE(path::is_plain_name("a\nb"));
  EXPECT_FALSE(path::is_plain_name("tab\there"));
  EXPECT_TRUE(path::is_plain_name(std::string(255, 'x')));
  EXPECT_FALSE(path::is_plain_name(std::string(256, 'x')));
  EXPECT_NE(path::component_problem("x/../..").find("'/'"), std::string::npos);
  EXPECT_NE(path::component_problem("..").find("'..'"), std::string::npos);
  EXPECT_NE(path::component_problem(std::string(5000, 'a')).find("255"), std::string::npos);
  EXPECT_EQ(path::component_problem("job-1234.host"), "");
}

}  // namespace
