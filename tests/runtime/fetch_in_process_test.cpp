// A flushed checkpoint survives the loss of every cache: the next job
// fetches it from the prefix.
#include <gtest/gtest.h>

#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, FetchRestoresAFlushedCheckpointAfterEveryCacheIsLost) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
