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

// A fetch that fails because the cache is full says nothing about the
// checkpoint: it must stay loadable (not marked FAILED) for the next job.
TEST(RuntimeInProcess, FetchIntoAFullCacheLeavesTheCheckpointLoadable) {
  SimJob job;
  job.set("SCR_FLUSH", "1");
  job.checkpoint("ckpt.1");
  job.lose_every_node();
  job.set("SCR_FAULT_INJECT", "write:rank_:1:ENOSPC");  // the first cached file
  job.run([](mpi::Comm&, Runtime& rt) {
    bool have = true;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    EXPECT_FALSE(have) << "a fetch into a full cache offered " << name;
  });
  job.settings.erase("SCR_FAULT_INJECT");
  job.lose_every_node();
  job.restart_from("ckpt.1");
}

}  // namespace
}  // namespace scr::rt::testing
