// Whole nodes lost: 8 ranks on 4 simulated nodes (two ranks per node, sharing
// the node's dataset directory), sets of 4 spanning the nodes. Losing nodes
// deletes the files of every rank on them; what can be rebuilt follows from
// where each set's lost members sit.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "harness.hpp"
#include "io/env.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Params;
using redset::Scheme;

constexpr int kPerNode = 2;

// Set ranks whose node is in lost_nodes, as a mask.
unsigned lost_members(const redset::Set& set, int my_node, unsigned lost_nodes) {
  unsigned mine = (lost_nodes & (1u << my_node)) ? 1u << set.rank() : 0u;
  unsigned all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED, MPI_BOR, mpi::raw(set.comm()));
  return all;
}

bool rebuildable(const redset::Set& set, unsigned lost) {
  int n = set.ranks();
  if (set.scheme() != Scheme::partner) return std::popcount(lost) <= set.tolerance();
  for (int e = 0; e < n; ++e) {
    if (!(lost & (1u << e))) continue;
    bool kept = false;
    for (int d = 1; d <= set.tolerance(); ++d) kept |= !(lost & (1u << ((e + d) % n)));
    if (!kept) return false;
  }
  return true;
}

class NodeLossTest : public ::testing::TestWithParam<Params> {};

TEST_P(NodeLossTest, LostNodesAreRebuiltWhenEverySetCanAndRefusedOtherwise) {
  auto world = mpi::borrow(MPI_COMM_WORLD);
  io::Env& env = io::Env::posix();
  redset::test::Scratch scratch(world);
  int node = world.rank() / kPerNode;
  int nodes = world.size() / kPerNode;
  auto set = redset::Set::create(world, "node" + std::to_string(node), GetParam());
  ASSERT_TRUE(set.ok());
  ASSERT_EQ(GetParam().scheme, set->scheme());
  std::string dir = scratch.node_dir("node" + std::to_string(node)) + "/dataset";
  redset::test::Member me(dir,
                          redset::test::make_files(dir, "rank" + std::to_string(world.rank()) + "/",
                                                   77u + static_cast<uint64_t>(world.rank())));
  ASSERT_TRUE(redset::apply(env, *set, dir, me.files()).ok());
  me.snapshot(*set);

  for (unsigned lost_nodes = 1; lost_nodes < (1u << nodes); ++lost_nodes) {
    bool expect = mpi::all_true(world, rebuildable(*set, lost_members(*set, node, lost_nodes)));
    if (lost_nodes & (1u << node)) me.lose();
    world.barrier();
    auto got = redset::recover(env, *set, dir);
    if (expect) {
      EXPECT_TRUE(got.ok()) << got.status().to_string() << " lost nodes " << lost_nodes;
      EXPECT_EQ("", me.differences());
    } else {
      EXPECT_EQ(Errc::unrecoverable, got.status().code()) << " lost nodes " << lost_nodes;
      EXPECT_EQ("", (lost_nodes & (1u << node)) ? me.present() : me.differences());
      if (lost_nodes & (1u << node)) me.restore();
    }
    world.barrier();
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, NodeLossTest,
                         ::testing::Values(Params{Scheme::xor_code, 4, 1, 1, 4096},
                                           Params{Scheme::rs, 4, 2, 1, 4096},
                                           Params{Scheme::partner, 4, 1, 1, 4096},
                                           Params{Scheme::partner, 4, 1, 2, 4096}),
                         [](const auto& info) {
                           const Params& p = info.param;
                           return std::string(redset::scheme_file_tag(p.scheme)) +
                                  std::to_string(p.scheme == Scheme::partner ? p.replicas
                                                                             : p.failures);
                         });

}  // namespace
