// A checkpoint protected by XOR survives the loss of one node's cache: the
// next job rebuilds the lost files from the other nodes (no prefix involved).
#include <gtest/gtest.h>

#include "io/env.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, XorRebuildsTheFilesOfALostNode) {
  SimJob job;
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.lose_node(2);
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_EQ(restart_and_verify(rt, world.rank()), "ckpt.1");
    EXPECT_TRUE(rt.finalize().ok());
  });
  // Rebuilt from the caches: nothing was ever flushed to fetch from.
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.1"));
}

}  // namespace
}  // namespace scr::rt::testing
