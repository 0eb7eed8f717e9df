// I/O failures in the middle of the pipelines (io::FaultEnv on one rank):
// every rank must get the error (nobody hangs waiting for messages), no
// half-written file may appear under a final name, and a later attempt with
// working storage must succeed exactly.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "harness.hpp"
#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Params;
using redset::Scheme;

class FaultTest : public ::testing::TestWithParam<Params> {
 protected:
  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
  mpi::Comm comm_ = world_.split(world_.rank() / 4, world_.rank());
  std::string node_ = "node" + std::to_string(world_.rank());

  redset::test::Member make_member(const redset::test::Scratch& scratch, const std::string& name) {
    std::string dir = scratch.node_dir(node_) + "/" + name;
    return redset::test::Member(
        dir, redset::test::make_sized_files(
                 dir, "", {9000u + 11u * static_cast<uint64_t>(world_.rank()), 64},
                 static_cast<uint64_t>(world_.rank())));
  }
};

TEST_P(FaultTest, WriteFailureDuringApplyFailsEveryRankAndLeavesNoRedundancyFile) {
  redset::test::Scratch scratch(world_);
  auto set = redset::Set::create(comm_, node_, GetParam());
  ASSERT_TRUE(set.ok());
  for (int nth_write : {1, 2, 4}) {  // the header, the first and a later piece
    redset::test::Member me = make_member(scratch, "apply" + std::to_string(nth_write));
    io::FaultEnv env(io::Env::posix());
    if (set->rank() == 2) env.fail_write(nth_write, ENOSPC);
    Status st = redset::apply(env, *set, me.dir(), me.files());
    EXPECT_EQ(Errc::no_space, st.code()) << "write " << nth_write << ": " << st.to_string();
    EXPECT_FALSE(io::Env::posix().exists(redset::redundancy_file(*set, me.dir())));
    me.snapshot(*set);  // data files only: there is no redundancy file
    EXPECT_EQ("", me.differences());
  }
}

TEST_P(FaultTest, FailureDuringRebuildFailsEveryRankAndTheNextAttemptWorks) {
  redset::test::Scratch scratch(world_);
  auto set = redset::Set::create(comm_, node_, GetParam());
  ASSERT_TRUE(set.ok());
  redset::test::Member me = make_member(scratch, "rebuild");
  ASSERT_TRUE(redset::apply(io::Env::posix(), *set, me.dir(), me.files()).ok());
  me.snapshot(*set);

  // A failed write, then a "crash" that drops every later step (so even the
  // clean-up fails). The failed write leaves nothing under a final name. The
  // crash may leave partly written files there (a lost member's files are
  // written in place when nothing is there); the next attempt must find them
  // damaged by their CRC32C and rebuild them exactly.
  for (bool crash : {false, true}) {
    if (set->rank() == 1) me.lose();
    io::FaultEnv env(io::Env::posix());
    if (set->rank() == 1) {
      if (crash)
        env.crash_at_step(4);
      else
        env.fail_write(3, EIO);
    }
    comm_.barrier();
    auto got = redset::recover(env, *set, me.dir());
    EXPECT_FALSE(got.ok());
    EXPECT_NE(Errc::unrecoverable, got.status().code()) << got.status().to_string();
    if (set->rank() == 1 && !crash) {
      for (const auto& [path, img] : me.images())
        EXPECT_FALSE(io::Env::posix().exists(path)) << path;
      EXPECT_EQ("", me.present());
    }
    got = redset::recover(io::Env::posix(), *set, me.dir());
    EXPECT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_EQ("", me.differences());
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, FaultTest,
                         ::testing::Values(Params{Scheme::xor_code, 4, 1, 1, 1024},
                                           Params{Scheme::rs, 4, 2, 1, 1024},
                                           Params{Scheme::partner, 4, 1, 1, 1024}),
                         [](const auto& info) {
                           return std::string(redset::scheme_file_tag(info.param.scheme));
                         });

}  // namespace
