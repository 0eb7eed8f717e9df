// Forming redundancy sets at scale, in-process (ranks as threads): the sets
// are numbered in the order of their first members' ranks, and forming them
// costs a process a number of bytes that grows with the logarithm of the
// job's size, not with the size (every process once received every set's
// first member).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "mpi/in_process.hpp"
#include "mpi/in_process_fabric.hpp"
#include "redset/set.hpp"

namespace {

using namespace scr;

struct Formed {
  int group = -1, groups = -1, leader = -1;
  uint64_t bytes = 0;  // sent by this rank while forming its set
};

std::vector<Formed> form_sets(int ranks) {
  std::vector<Formed> out(static_cast<size_t>(ranks));
  mpi::InProcess(ranks, 512 * 1024).run([&](mpi::Comm& world) {
    redset::Params p;  // XOR, sets of 8
    std::string node = "node" + std::to_string(world.rank() / 4);
    world.barrier();
    uint64_t before = mpi::thread_traffic().bytes;
    auto set = redset::Set::create(world, node, p);
    Formed& f = out[static_cast<size_t>(world.rank())];
    f.bytes = mpi::thread_traffic().bytes - before;
    ASSERT_TRUE(set.ok()) << set.status().to_string();
    f.group = set->group();
    f.groups = set->groups();
    f.leader = set->members().front();
  });
  return out;
}

double mean_bytes(const std::vector<Formed>& formed) {
  double sum = 0;
  for (const auto& f : formed) sum += static_cast<double>(f.bytes);
  return sum / static_cast<double>(formed.size());
}

TEST(SetsAtScale, NumberedInTheOrderOfTheirFirstMembers) {
  auto formed = form_sets(96);
  std::vector<int> leaders;
  for (const auto& f : formed) leaders.push_back(f.leader);
  std::sort(leaders.begin(), leaders.end());
  leaders.erase(std::unique(leaders.begin(), leaders.end()), leaders.end());
  for (size_t r = 0; r < formed.size(); ++r) {
    const Formed& f = formed[r];
    EXPECT_EQ(f.groups, static_cast<int>(leaders.size())) << "rank " << r;
    EXPECT_EQ(f.group, std::lower_bound(leaders.begin(), leaders.end(), f.leader) - leaders.begin())
        << "rank " << r;
  }
}

// Four times the ranks: a cost per process that grew with N would come
// close to four times the bytes; logarithmic growth stays well under two.
TEST(SetsAtScale, FormingThemCostsAProcessLogarithmicallyManyBytes) {
  double small = mean_bytes(form_sets(256));
  double large = mean_bytes(form_sets(1024));
  EXPECT_LT(large, 2.0 * small) << "mean bytes sent per process: " << small << " at 256 ranks, " << large
                                << " at 1,024";
}

}  // namespace
