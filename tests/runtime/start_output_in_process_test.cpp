// SCR_Start_output is collective: a name or flags that differ between
// processes, or a call one process refuses, fail on every process (SCR
// aborts the job there), and nothing of the dataset is started.
#include <gtest/gtest.h>

#include <string>

#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(StartOutputInProcess, NamesThatDifferBetweenProcessesFailEverywhere) {
  SimJob job;
  job.run([&](mpi::Comm& world, Runtime& rt) {
    Status st = rt.start_output("ckpt." + std::to_string(world.rank() == 2 ? 2 : 1), kFlagCheckpoint);
    EXPECT_EQ(st.code(), Errc::invalid_argument) << st.to_string();
    // Rank 2 says what differs, the others which rank did.
    EXPECT_NE(st.message().find(world.rank() == 2 ? "differs from rank 0's" : "rank 2"), std::string::npos)
        << st.message();
    // Flags too.
    st = rt.start_output("ckpt.1", world.rank() == 1 ? kFlagOutput : kFlagCheckpoint);
    EXPECT_EQ(st.code(), Errc::invalid_argument) << st.to_string();
    // One process refusing its name (a '/') fails them all, none waits.
    st = rt.start_output(world.rank() == 3 ? "bad/name" : "ckpt.1", kFlagCheckpoint);
    EXPECT_FALSE(st.ok());
    // Nothing was started: the same call everywhere works and is checkpoint 1.
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
