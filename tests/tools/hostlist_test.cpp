// Host lists in range syntax, both ways, as resource managers and SCR's
// commands write them.
#include "tools/common/hostlist.hpp"

#include <gtest/gtest.h>

namespace {

using scr::tools::compress_hosts;
using scr::tools::expand_hosts;
using V = std::vector<std::string>;

TEST(Hostlist, ExpandsRangesListsAndPadding) {
  EXPECT_EQ((V{"n1", "n2", "n3", "n7", "login2"}), *expand_hosts("n[1-3,7],login2"));
  EXPECT_EQ((V{"n08", "n09", "n10"}), *expand_hosts("n[08-10]"));
  EXPECT_EQ((V{"r1n1", "r1n2", "r2n1", "r2n2"}), *expand_hosts("r[1-2]n[1-2]"));
  EXPECT_EQ((V{"a", "b"}), *expand_hosts("a,b,a"));
  EXPECT_EQ(V{}, *expand_hosts(""));
}

TEST(Hostlist, RejectsMalformedLists) {
  EXPECT_FALSE(expand_hosts("n[1-3").ok());
  EXPECT_FALSE(expand_hosts("n[a-b]").ok());
  EXPECT_FALSE(expand_hosts("n[5-2]").ok());
}

TEST(Hostlist, CompressesSortedRuns) {
  EXPECT_EQ("n[0-2,4]", compress_hosts({"n4", "n0", "n2", "n1"}));
  EXPECT_EQ("n2", compress_hosts({"n2"}));
  EXPECT_EQ("n[08-10]", compress_hosts({"n08", "n09", "n10"}));
  EXPECT_EQ("vm", compress_hosts({"vm"}));
  EXPECT_EQ("", compress_hosts({}));
  V many = {"a1", "a2", "b7", "c"};
  EXPECT_EQ(many, *expand_hosts(compress_hosts(many)));
}

}  // namespace
