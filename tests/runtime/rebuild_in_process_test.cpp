// A checkpoint protected across nodes survives the loss of one node: the
// next job rebuilds the lost files from the other nodes (no prefix
// involved). XOR runs the ring pipeline, RS the gather pipeline, PARTNER the
// streams.
#include <gtest/gtest.h>

#include <string>

#include "io/env.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

class RebuildInProcess : public ::testing::TestWithParam<std::string> {};

TEST_P(RebuildInProcess, RebuildsTheFilesOfALostNode) {
  SimJob job;
  job.set("SCR_COPY_TYPE", GetParam());
  job.checkpoint("ckpt.1");
  job.lose_node(2);
  job.restart_from("ckpt.1");
  // Rebuilt from the caches: nothing was ever flushed to fetch from.
  EXPECT_FALSE(io::Env::posix().exists(job.prefix() + "/ckpt.1"));
}

INSTANTIATE_TEST_SUITE_P(Schemes, RebuildInProcess, ::testing::Values("XOR", "RS", "PARTNER"));

}  // namespace
}  // namespace scr::rt::testing
