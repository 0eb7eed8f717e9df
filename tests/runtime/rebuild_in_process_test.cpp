// A checkpoint protected by XOR survives the loss of one node's cache: the
// next job rebuilds the lost files from the other nodes (no prefix involved).
#include <gtest/gtest.h>

#include "io/env.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, XorRebuildsTheFilesOfALostNode) {
  SimJob job;
  job.checkpoint("ckpt.1");
  job.lose_node(2);
  job.restart_from("ckpt.1");
  // Rebuilt from the caches: nothing was ever flushed to fetch from.
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.1"));
}

}  // namespace
}  // namespace scr::rt::testing
