// scr_run's node plan: spares take the place of down nodes, in order.
#include "tools/scr_run/node_plan.hpp"

#include <gtest/gtest.h>

namespace {

using scr::tools::run::plan_nodes;
using Names = std::vector<std::string>;

TEST(NodePlan, SparesReplaceDownNodesAtTheirPositions) {
  auto p = plan_nodes({"n0", "n1", "n2", "n3"}, {"n4", "n5"}, {"n2"});
  EXPECT_EQ((Names{"n0", "n1", "n4", "n3"}), p.nodes);
  EXPECT_EQ(Names{"n5"}, p.spares);
  EXPECT_TRUE(p.dropped.empty());
}

TEST(NodePlan, WithoutSparesDownNodesAreDropped) {
  auto p = plan_nodes({"n0", "n1", "n2"}, {"n3"}, {"n0", "n2"});
  EXPECT_EQ((Names{"n3", "n1"}), p.nodes);
  EXPECT_EQ(Names{"n2"}, p.dropped);
  EXPECT_TRUE(p.spares.empty());
}

TEST(NodePlan, SparesThatAreDownAreSkipped) {
  auto p = plan_nodes({"n0", "n1"}, {"s0", "s1", "s2"}, {"n1", "s0"});
  EXPECT_EQ((Names{"n0", "s1"}), p.nodes);
  EXPECT_EQ(Names{"s2"}, p.spares);
}

TEST(NodePlan, NothingDownChangesNothing) {
  auto p = plan_nodes({"n0", "n1"}, {"s0"}, {});
  EXPECT_EQ((Names{"n0", "n1"}), p.nodes);
  EXPECT_EQ(Names{"s0"}, p.spares);
}

TEST(NodeLists, SplitAndJoin) {
  EXPECT_EQ((Names{"n0", "n1", "n2"}), scr::tools::run::split_nodes(" n0, n1,,n2 "));
  EXPECT_EQ("n0,n1", scr::tools::run::join_nodes({"n0", "n1"}));
}

}  // namespace
