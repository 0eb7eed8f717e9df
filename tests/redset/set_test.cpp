// Set formation over simulated nodes: failure groups named
// "node<rank / ranks_per_node>" stand in for the nodes of a real job.
#include "redset/set.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"

namespace {

using namespace scr;
using redset::Params;
using redset::Scheme;
using redset::Set;

mpi::Comm world() { return mpi::borrow(MPI_COMM_WORLD); }

std::string node_of(int rank, int ranks_per_node) {
  return "node" + std::to_string(rank / ranks_per_node);
}

TEST(SetFormation, NoSetHoldsTwoMembersOfOneNode) {
  auto w = world();
  for (int per_node : {1, 2, 4})
    for (int set_size : {2, 3, 4, 8}) {
      int nodes = w.size() / per_node;
      std::string node = node_of(w.rank(), per_node);
      auto set = Set::create(w, node, Params{Scheme::xor_code, set_size, 2, 1, 4096});
      ASSERT_TRUE(set.ok()) << set.status().to_string();
      auto names = mpi::allgather_strings(set->comm(), node);
      std::set<std::string> distinct(names.begin(), names.end());
      EXPECT_EQ(names.size(), distinct.size())
          << "per node " << per_node << " set size " << set_size;
      EXPECT_EQ(Scheme::xor_code, set->scheme());
      EXPECT_GE(set->ranks(), std::min(set_size, nodes));
      EXPECT_EQ(w.rank(), set->members()[static_cast<size_t>(set->rank())]);
      EXPECT_EQ(w.rank(), set->world_rank());
      // Set ids are consistent: members agree, and ids count the sets.
      EXPECT_EQ(set->group(), mpi::min(set->comm(), int64_t{set->group()}));
      EXPECT_EQ(set->groups(), mpi::max(w, int64_t{set->group()}) + 1);
    }
}

TEST(SetFormation, OneNodeFallsBackToSingleWithAWarning) {
  auto w = world();
  ::testing::internal::CaptureStderr();
  auto set = Set::create(w, "the-only-node", Params{Scheme::xor_code, 4, 2, 1, 4096});
  std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(set.ok()) << set.status().to_string();
  EXPECT_EQ(Scheme::single, set->scheme());
  EXPECT_EQ(1, set->ranks());
  EXPECT_EQ(0, set->tolerance());
  if (w.rank() == 0) {
    EXPECT_NE(std::string::npos, err.find("fall back to SINGLE")) << err;
  }
}

TEST(SetFormation, ChecksAndReplicasShrinkToFitSmallSets) {
  auto w = world();
  std::string node = node_of(w.rank(), 2);  // 4 nodes: sets of 4
  ::testing::internal::CaptureStderr();
  auto rs = Set::create(w, node, Params{Scheme::rs, 4, 6, 1, 4096});
  auto partner = Set::create(w, node, Params{Scheme::partner, 4, 2, 9, 4096});
  std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(rs.ok() && partner.ok());
  EXPECT_EQ(3, rs->params().failures);
  EXPECT_EQ(3, partner->params().replicas);
  if (w.rank() == 0) {
    EXPECT_NE(std::string::npos, err.find("SET_FAILURES=6")) << err;
    EXPECT_NE(std::string::npos, err.find("REPLICAS=9")) << err;
  }
}

TEST(SetFormation, DescriptorRoundTrip) {
  auto w = world();
  for (Scheme scheme : {Scheme::partner, Scheme::xor_code, Scheme::rs}) {
    auto set = Set::create(w, node_of(w.rank(), 1), Params{scheme, 3, 2, 2, 4096});
    ASSERT_TRUE(set.ok());
    auto again = Set::from_desc(w, set->desc(), 8192);
    ASSERT_TRUE(again.ok()) << again.status().to_string();
    EXPECT_EQ(set->desc(), again->desc());
    EXPECT_EQ(set->members(), again->members());
    EXPECT_EQ(set->rank(), again->rank());
    EXPECT_EQ(set->group(), again->group());
    EXPECT_EQ(set->groups(), again->groups());
    EXPECT_EQ(set->tolerance(), again->tolerance());
    EXPECT_EQ(size_t{8192}, again->params().piece_size);
  }
}

TEST(SetFormation, FromDescRefusesAnotherRanksDescriptorEverywhere) {
  auto w = world();
  auto set = Set::create(w, node_of(w.rank(), 1), Params{Scheme::xor_code, 4, 1, 1, 4096});
  ASSERT_TRUE(set.ok());
  kv::Tree desc = set->desc();
  if (w.rank() == 3) desc.set_int("WRANK", 4);
  auto again = Set::from_desc(w, desc, 4096);
  EXPECT_FALSE(again.ok());
}

}  // namespace
