// The cache catalog commits each step of a checkpoint once, atomically: a
// process that dies at any file-system step of a checkpoint into cache
// leaves filemaps the next run either restarts from, with every byte
// intact, or rejects with the reason recorded in the event log; a filemap
// that cannot be written fails the call that changed it.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/dataset.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

// How the filemaps in every node's control directory record dataset `id`:
// listed by some, and complete (or further) in every rank's own.
struct Listing {
  bool listed = false;
  bool complete_everywhere = true;
};

Listing list_dataset(const SimJob& job, int id) {
  Listing out;
  std::string cntl = io::path::join(io::path::dirname(job.prefix()), "cntl");
  for (int r = 0; r < SimJob::kRanks; ++r) {
    // Rank r runs on node n<r> (4 ranks on 4 simulated nodes).
    std::string path = cntl + "/n" + std::to_string(r) + "/tester/scr.sim/filemap_" + std::to_string(r) + ".scr";
    auto fm = Filemap::load(io::Env::posix(), path, r);
    EXPECT_TRUE(fm.ok()) << "a filemap the crash left cannot be read: " << fm.status().to_string();
    bool here = fm.ok() && fm->has(id);
    out.listed = out.listed || here;
    if (!here || fm->state(id) == CacheState::routed) out.complete_everywhere = false;
  }
  return out;
}

// Every step of a checkpoint into cache (its Start_output, the redundancy
// files, Complete's commit): each rank's file system stops at its N-th
// change, for N = 1, 2, ... until the checkpoint gets through. The next job,
// on the same nodes, restarts from ckpt.2 when every rank's filemap
// committed it complete, else from ckpt.1, reading back the bytes written;
// a ckpt.2 some filemap lists but the restart does not use is reported lost,
// with why.
TEST(RuntimeInProcess, ACheckpointCrashedAtAnyStepRestartsFromTheCacheOrIsRejectedWithAReason) {
  int crash_points = 0, newer = 0, rejected = 0;
  for (int n = 1;; ++n) {
    ASSERT_LT(n, 1000) << "the checkpoint never got through";
    SCOPED_TRACE("crash at step " + std::to_string(n));
    SimJob job;
    job.set("SCR_CACHE_SIZE", "2");  // ckpt.1 stays whatever happens to ckpt.2
    job.set("SCR_LOG_ENABLE", "1");
    job.checkpoint("ckpt.1");
    if (crash_while_writing(job, n, "ckpt.2") == 0) break;
    ++crash_points;
    Listing second = list_dataset(job, 2);
    std::string restarted;
    job.run([&](mpi::Comm& world, Runtime& rt) {
      std::string name = restart_and_verify(rt, world.rank());
      if (world.rank() == 0) restarted = name;
      EXPECT_TRUE(rt.finalize().ok());
    });
    if (second.complete_everywhere) {
      EXPECT_EQ(restarted, "ckpt.2") << "every rank committed ckpt.2 complete, yet it was not used";
    } else {
      EXPECT_EQ(restarted, "ckpt.1");
    }
    if (restarted == "ckpt.2") ++newer;
    if (second.listed && restarted == "ckpt.1") {
      ++rejected;
      auto log = io::read_file(io::Env::posix(), job.prefix() + "/.scr/log");
      ASSERT_TRUE(log.ok()) << log.status().to_string();
      size_t at = log->find("event=DATASET_LOST id=2 ");
      ASSERT_NE(at, std::string::npos) << "the torn ckpt.2 is not reported lost:\n" << *log;
      std::string line = log->substr(at, log->find('\n', at) - at);
      EXPECT_NE(line.find(" note="), std::string::npos) << "the rejection gives no reason: " << line;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(crash_points, 5) << "the sweep did not reach into the checkpoint";
  EXPECT_GT(rejected, 0) << "no crash left a torn ckpt.2 to reject";
  EXPECT_GT(newer, 0) << "no crash happened after ckpt.2 was committed";
}

// SCR_CACHE_PURGE deletes the cache at SCR_Init. A process that cannot write
// its emptied filemap fails SCR_Init on every process, naming the file,
// rather than leave a filemap that lists files just deleted.
TEST(RuntimeInProcess, APurgeWhoseFilemapCannotBeWrittenFailsInitWithTheReason) {
  SimJob job;
  job.checkpoint("ckpt.1");
  job.set("SCR_CACHE_PURGE", "1");
  job.before_init = [](io::FaultEnv& faults) { faults.fail_write(1, ENOSPC, "filemap_"); };
  for (const Status& st : job.init_only()) {
    EXPECT_EQ(st.code(), Errc::no_space) << st.to_string();
    EXPECT_NE(st.message().find("filemap_"), std::string::npos) << st.message();
  }
}

}  // namespace
}  // namespace scr::rt::testing
