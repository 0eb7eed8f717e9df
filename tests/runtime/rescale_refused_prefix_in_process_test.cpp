// A restart at another job size from a prefix that takes no writes (full,
// read-only): the checkpoint there is whole, so the job restarts from it,
// each node keeping the restart file table in its own cache instead of the
// prefix. 4 in-process ranks write and flush a checkpoint; every node is
// lost; a job of 2 restarts from the prefix and reads every old rank's file.
#include <gtest/gtest.h>

#include <string>

#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "sim_job.hpp"

namespace {

using namespace scr;

constexpr size_t kStack = 1 << 20;
constexpr int kWriters = 4;

void write_flushed(rt::testing::SimDir& dir) {
  dir.settings["SCR_FLUSH"] = "1";
  mpi::InProcess(kWriters, kStack).run([&](mpi::Comm& world) {
    auto rt = rt::Runtime::init(rt::testing::config_from(dir.settings, dir.prefix), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE(rt::testing::write_checkpoint(**rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE((*rt)->finalize().ok());
  });
  for (const char* node : {"n0", "n1", "n2", "n3"}) dir.lose(node);
}

// A job of 2 on n0 and n1 whose prefix refuses every write with `err`: it
// restarts from ckpt.1 and every old rank's file reads back as written.
void restart_at_two(rt::testing::SimDir& dir, Errc err) {
  dir.settings["SCR_SIM_NODES"] = "n0,n1";
  rt::testing::RefusingPrefix refusing[2] = {{dir.prefix, err}, {dir.prefix, err}};
  // (What SCR_Finalize returns does not matter: the prefix takes no record
  // of the restart.)
  (void)rt::testing::restart_offered(dir.settings, dir.prefix, 2, "ckpt.1",
                                     rt::testing::read_every_old_rank("ckpt.1", kWriters),
                                     [&](int rank) { return &refusing[rank]; });
}

TEST(RescaleRefusedPrefix, AFullPrefixStillRestartsAtAnotherSize) {
  rt::testing::SimDir dir("scr_rescale_full");
  write_flushed(dir);
  restart_at_two(dir, Errc::no_space);
}

TEST(RescaleRefusedPrefix, APrefixThisUserCannotWriteStillRestartsAtAnotherSize) {
  rt::testing::SimDir dir("scr_rescale_ro");
  write_flushed(dir);
  restart_at_two(dir, Errc::permission);
}

}  // namespace
