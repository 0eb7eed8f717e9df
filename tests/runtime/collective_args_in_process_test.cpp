// Arguments SCR requires to be the same on every process (it aborts the
// job otherwise): SCR_Start_output's name and flags, whose difference, or a
// call one process refuses, fails on every process with nothing started;
// and what SCR_Config set, whose difference fails SCR_Init everywhere.
#include <gtest/gtest.h>

#include <string>

#include "mpi/in_process.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(CollectiveArgsInProcess, NamesThatDifferBetweenProcessesFailEverywhere) {
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

TEST(CollectiveArgsInProcess, SCRConfigValuesThatDifferFailInitEverywhere) {
  SimDir dir("scr_config_differs");
  mpi::InProcess(SimJob::kRanks, 1 << 20).run([&](mpi::Comm& world) {
    Config cfg = config_from(dir.settings, dir.prefix);
    ASSERT_TRUE(cfg.apply_app_config(world.rank() == 1 ? "SCR_CACHE_SIZE=3" : "SCR_CACHE_SIZE=2").ok());
    auto rt = Runtime::init(cfg, world);
    ASSERT_FALSE(rt.ok());
    EXPECT_EQ(rt.status().code(), Errc::invalid_argument) << rt.status().to_string();
    EXPECT_NE(rt.status().message().find(world.rank() == 1 ? "differ from rank 0's" : "rank 1"), std::string::npos)
        << rt.status().message();
  });
  // The same values everywhere: the job runs.
  mpi::InProcess(SimJob::kRanks, 1 << 20).run([&](mpi::Comm& world) {
    Config cfg = config_from(dir.settings, dir.prefix);
    ASSERT_TRUE(cfg.apply_app_config("SCR_CACHE_SIZE=2").ok());
    auto rt = Runtime::init(cfg, world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE((*rt)->finalize().ok());
  });
}

}  // namespace
}  // namespace scr::rt::testing
