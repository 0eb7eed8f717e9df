// Runtimes on parts of one launch (SCRPP_Init_comm): 8 rank threads split by
// parity into two jobs of 4, each with its own prefix, on 4 simulated nodes
// of 2 launch ranks each (so every node holds one process of each job).
#include <gtest/gtest.h>

#include <stdlib.h>

#include <mutex>

#include "io/env.hpp"
#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "runtime/prefix/identity.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

constexpr int kLaunch = 8;

class CommJobs : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/scr_comm_jobs.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    for (const char* d : {"/a", "/b"}) ASSERT_TRUE(io::make_dirs(io::Env::posix(), root_ + d, 0700).ok());
    prefix_[0] = root_ + "/a";
    prefix_[1] = root_ + "/b";
  }
  void TearDown() override { (void)io::remove_tree(io::Env::posix(), root_); }

  Config config(int job) const {
    const std::string& prefix = prefix_[job];
    return config_from({{"SCR_PREFIX", prefix},
                        {"SCR_CACHE_BASE", root_ + "/cache"},
                        {"SCR_CNTL_BASE", root_ + "/cntl"},
                        {"SCR_SIM_NODES", "n0,n1,n2,n3"},
                        {"SCR_CACHE_BYPASS", "0"},
                        {"SCR_COPY_TYPE", "XOR"},
                        {"SCR_FLUSH", "0"},
                        // One id for the launch, as a resource manager gives it.
                        {"SCR_JOB_ID", "launch"},
                        {"SCR_USER_NAME", "tester"},
                        {"SCR_SYSTEM_CONF_FILE", root_ + "/system.conf"}},
                       prefix);
  }

  // One launch: every rank thread joins job rank % 2 and starts its runtime
  // on that job's communicator; `each` gets the job, the job's communicator
  // and what the init returned.
  void launch(const std::function<void(int job, mpi::Comm& comm, Result<std::unique_ptr<Runtime>>& rt)>& each) {
    Config configs[2] = {config(0), config(1)};
    mpi::InProcess(kLaunch).run([&](mpi::Comm& world) {
      int job = world.rank() % 2;
      mpi::Comm comm = world.split(job, world.rank());
      auto rt = Runtime::init(configs[job], comm, Launch{world.rank(), world.size()});
      // Both jobs are past init before either goes on (and may finalize,
      // releasing its prefix lock), whatever the threads' timing.
      world.barrier();
      each(job, comm, rt);
    });
  }

  static std::string dataset(int job) { return job == 0 ? "a.step.3" : "b.step.5"; }

  std::string root_;
  std::string prefix_[2];
};

TEST_F(CommJobs, EachJobRestartsItsOwnCheckpointAfterANodeLostUnderBoth) {
  launch([&](int job, mpi::Comm& comm, Result<std::unique_ptr<Runtime>>& rt) {
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_TRUE(write_checkpoint(**rt, comm.rank(), dataset(job)).ok());
    EXPECT_TRUE((*rt)->finalize().ok());
  });
  // Two job directories per node, one per job; nothing in either prefix.
  std::string user_dir = root_ + "/cache/n1/tester";
  int dirs = 0;
  for (int job = 0; job < 2; ++job)
    if (io::Env::posix().exists(user_dir + "/scr.launch." + part_tag(prefix_[job]))) ++dirs;
  EXPECT_EQ(dirs, 2) << "job directories of both jobs on n1";
  for (const char* base : {"/cache/n1", "/cntl/n1"})
    ASSERT_TRUE(io::remove_tree(io::Env::posix(), root_ + base).ok());

  launch([&](int job, mpi::Comm& comm, Result<std::unique_ptr<Runtime>>& rt) {
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    EXPECT_EQ(restart_and_verify(**rt, comm.rank()), dataset(job)) << "job " << job;
    EXPECT_TRUE((*rt)->finalize().ok());
  });
}

TEST_F(CommJobs, ASecondJobOnOnePrefixIsRefusedOnAllItsProcesses) {
  prefix_[1] = prefix_[0];
  std::mutex mutex;
  std::vector<Status> refused[2];
  int started[2] = {0, 0};
  launch([&](int job, mpi::Comm&, Result<std::unique_ptr<Runtime>>& rt) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (rt.ok()) ++started[job];
      else refused[job].push_back(rt.status());
    }
    if (rt.ok()) {
      EXPECT_TRUE((*rt)->finalize().ok());
    }
  });
  // One job in, the other refused on every process, saying what to change.
  EXPECT_EQ(started[0] + started[1], 4);
  EXPECT_TRUE(started[0] == 0 || started[1] == 0);
  for (const auto& statuses : refused)
    for (const Status& st : statuses) {
      EXPECT_EQ(st.code(), Errc::bad_state);
      EXPECT_NE(st.message().find("needs its own SCR_PREFIX"), std::string::npos) << st.message();
    }
}

TEST(JobDir, AJobOnPartOfTheLaunchHasItsOwn) {
  Identity id{"tester", "42", "n0", true, ""};
  EXPECT_EQ(job_dir("/c", id), "/c/n0/tester/scr.42");
  id.part = part_tag("/p/a");
  EXPECT_EQ(id.part.size(), 8u);
  EXPECT_NE(id.part, part_tag("/p/b"));
  EXPECT_EQ(job_dir("/c", id), "/c/n0/tester/scr.42." + id.part);
}

}  // namespace
}  // namespace scr::rt::testing
