// Which members of a scheme's pipelines wait for their sends by sleeping at
// once, and which never sleep (mpi/patience.hpp), in one process (ranks as
// threads): in an encode every member also receives, none sleeps and every
// one waits busily (MPI's own wait); in a rebuild no member waits busily,
// the members that only send sleep at once (the first of XOR's chain,
// PARTNER's two senders), and the lost member, which receives and writes
// every piece, never does. (RS's rebuild spreads its stripes' gathering over
// the set: every member receives, and spins first.)
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "harness.hpp"
#include "mpi/in_process.hpp"
#include "mpi/in_process_fabric.hpp"

namespace {

using namespace scr;
using redset::Scheme;

constexpr int kRanks = 4;

struct Waits {
  std::vector<uint64_t> apply = std::vector<uint64_t>(kRanks);
  std::vector<uint64_t> recover = std::vector<uint64_t>(kRanks);
  std::vector<uint64_t> apply_busy = std::vector<uint64_t>(kRanks);
  std::vector<uint64_t> recover_busy = std::vector<uint64_t>(kRanks);
  std::vector<uint64_t> apply_spinning = std::vector<uint64_t>(kRanks);
};

// Rank 0's node is lost between the encode and the rebuild.
Waits sleeping_waits(Scheme scheme) {
  Waits w;
  mpi::InProcess(kRanks).run([&](mpi::Comm& world) {
    io::Env& env = io::Env::posix();
    redset::test::Scratch scratch(world);
    redset::Params params{scheme, kRanks, 2, 1, 64 << 10};
    std::string node = "node" + std::to_string(world.rank());
    auto set = redset::Set::create(world, node, params);
    ASSERT_TRUE(set.ok());
    std::string dir = scratch.node_dir(node) + "/waits";
    auto r = static_cast<size_t>(world.rank());
    redset::test::Member me(dir, redset::test::make_sized_files(dir, "", {300000 + 4097 * r, 70000}, r));
    auto& traffic = mpi::thread_traffic();
    uint64_t before = traffic.sleeping_waits, busy = traffic.busy_waits, spinning = traffic.spinning_waits;
    ASSERT_TRUE(redset::apply(env, *set, dir, me.files()).ok());
    w.apply[r] = traffic.sleeping_waits - before;
    w.apply_busy[r] = traffic.busy_waits - busy;
    w.apply_spinning[r] = traffic.spinning_waits - spinning;
    me.snapshot(*set);
    world.barrier();
    if (world.rank() == 0) me.lose();
    world.barrier();
    before = traffic.sleeping_waits;
    busy = traffic.busy_waits;
    ASSERT_TRUE(redset::recover(env, *set, dir).ok());
    w.recover[r] = traffic.sleeping_waits - before;
    w.recover_busy[r] = traffic.busy_waits - busy;
    EXPECT_EQ(me.differences(), "");
  });
  return w;
}

// In the encode no member waits patiently and every one waits busily; only
// the exchanges of header entries and of checksums with each of its `width`
// neighbours, a message each, spin first (a pipeline wait left spinning
// would add one per piece). In the rebuild exactly `senders` wait patiently
// and none busily.
void expect_patient_in_rebuild(Scheme scheme, const std::set<int>& senders, uint64_t width) {
  Waits w = sleeping_waits(scheme);
  EXPECT_EQ(w.apply, std::vector<uint64_t>(kRanks));
  EXPECT_EQ(w.apply_spinning, std::vector<uint64_t>(kRanks, 2 * width));
  EXPECT_EQ(w.recover_busy, std::vector<uint64_t>(kRanks));
  for (int r = 0; r < kRanks; ++r) EXPECT_GT(w.apply_busy[static_cast<size_t>(r)], 0u) << "rank " << r;
  for (int r = 0; r < kRanks; ++r) {
    if (senders.count(r))
      EXPECT_GT(w.recover[static_cast<size_t>(r)], 0u) << "rank " << r;
    else
      EXPECT_EQ(w.recover[static_cast<size_t>(r)], 0u) << "rank " << r;
  }
}

// The reduction to rank 0 starts at rank 1; ranks 2 and 3 receive too.
TEST(PatientWaits, XorChainsFirstMemberOnly) { expect_patient_in_rebuild(Scheme::xor_code, {1}, 1); }

// Rank 1 keeps rank 0's replica, rank 3 sends the files rank 0 kept a
// replica of; rank 2 sends nothing.
TEST(PatientWaits, PartnerSendersOnly) { expect_patient_in_rebuild(Scheme::partner, {1, 3}, 1); }

// Every member of RS's rebuild gathers a stripe: none sleeps at once.
TEST(PatientWaits, RsNoMember) { expect_patient_in_rebuild(Scheme::rs, {}, 2); }

}  // namespace
