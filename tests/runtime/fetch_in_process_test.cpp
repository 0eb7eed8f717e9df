// A flushed checkpoint survives the loss of every cache: the next job
// fetches it from the prefix.
#include <gtest/gtest.h>

#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, FetchRestoresAFlushedCheckpointAfterEveryCacheIsLost) {
  SimJob job;
  job.settings["SCR_FLUSH"] = "1";
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.lose_every_node();
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_EQ(restart_and_verify(rt, world.rank()), "ckpt.1");
    EXPECT_TRUE(rt.finalize().ok());
  });
}

}  // namespace
}  // namespace scr::rt::testing
