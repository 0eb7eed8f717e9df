// Running a command on many nodes (tools/common/remote.hpp): the words each
// method runs, and real runs through a fake rsh-like agent: answers come
// back per node, a hung node is killed at its timeout without holding up
// the others, a method that cannot start is told apart from a node that
// failed, and no more than `fanout` run at once.
#include "tools/common/remote.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "../io/temp_dir.hpp"

namespace {

using namespace scr::tools;
using Words = std::vector<std::string>;

TEST(RemoteArgv, EachMethodRunsTheWordsOnTheNode) {
  Words cmd{"/opt/scr/bin/scr_scavenge", "--agent", "scan", "--prefix", "/p/it's here"};
  EXPECT_EQ((Words{"srun", "--overlap", "-N", "1", "-n", "1", "-w", "n3", "/opt/scr/bin/scr_scavenge",
                   "--agent", "scan", "--prefix", "/p/it's here"}),
            remote_argv("srun", "n3", cmd, 5));
  EXPECT_EQ((Words{"mpirun", "-n", "1", "--host", "n3", "/opt/scr/bin/scr_scavenge", "--agent",
                   "scan", "--prefix", "/p/it's here"}),
            remote_argv("mpirun", "n3", cmd, 5));
  std::string line = shell_line(cmd);
  EXPECT_EQ("'/opt/scr/bin/scr_scavenge' '--agent' 'scan' '--prefix' '/p/it'\\''s here'", line);
  EXPECT_EQ((Words{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "n3", line}),
            remote_argv("ssh", "n3", cmd, 5));
  EXPECT_EQ((Words{"pdsh", "-w", "n3", line}), remote_argv("pdsh", "n3", cmd, 5));
  EXPECT_EQ((Words{"/run/rsh", "-x", "n3", line}), remote_argv("/run/rsh -x", "n3", cmd, 5));
}

TEST(RemoteLines, PdshPrefixesAreTakenOff) {
  EXPECT_EQ((Words{"a", "n10: b", "c"}), node_lines("n1: a\nn10: b\nc\n", "n1"));
}

// An rsh-like agent playing nodes: "slow" hangs, "bad" fails, others answer.
class RemoteRun : public ::testing::Test {
 protected:
  void SetUp() override {
    agent_ = dir_.path() + "/agent";
    std::ofstream(agent_) << "#!/bin/sh\n"
                             "node=\"$1\"; shift\n"
                             "echo \"$(date +%s%N) start\" >> " + dir_.path() + "/log\n"
                             "case \"$node\" in\n"
                             "  slow) sleep 30 ;;\n"
                             "  bad) echo failing; exit 3 ;;\n"
                             "  pause*) sleep 0.3 ;;\n"
                             "esac\n"
                             "/bin/sh -c \"$*\"\n";
    std::filesystem::permissions(agent_, std::filesystem::perms::owner_all);
  }
  scr::testing::TempDir dir_;
  std::string agent_;
};

TEST_F(RemoteRun, AnswersComeBackPerNodeAndAHungNodeIsKilledAtItsTimeout) {
  auto t0 = std::chrono::steady_clock::now();
  auto runs = run_each(
      {"n0", "slow", "bad", "n1"},
      [&](const std::string& node) { return remote_argv(agent_, node, {"echo", "hi " + node}, 1); },
      2);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 25.0) << "the hung node was not killed at its timeout";
  ASSERT_EQ(4u, runs.size());
  EXPECT_TRUE(runs["n0"].started);
  EXPECT_EQ(0, runs["n0"].exit_code);
  EXPECT_EQ("hi n0\n", runs["n0"].output);
  EXPECT_EQ("hi n1\n", runs["n1"].output);
  EXPECT_TRUE(runs["slow"].timed_out);
  EXPECT_EQ(3, runs["bad"].exit_code);
  EXPECT_FALSE(runs["bad"].timed_out);
}

TEST_F(RemoteRun, AMethodThatCannotStartIsToldApart) {
  auto runs = run_each(
      {"n0"}, [&](const std::string& node) { return remote_argv(dir_.path() + "/absent", node, {"true"}, 1); },
      5);
  EXPECT_FALSE(runs["n0"].started);
  EXPECT_NE(std::string::npos, runs["n0"].error.find("absent"));
}

TEST_F(RemoteRun, NoMoreThanTheFanoutRunAtOnce) {
  // Four nodes that each take 0.3 s, two at a time: the third starts only
  // after one of the first two ended.
  auto runs = run_each(
      {"pause0", "pause1", "pause2", "pause3"},
      [&](const std::string& node) { return remote_argv(agent_, node, {"true"}, 1); }, 0, 2);
  for (const auto& [node, run] : runs) EXPECT_EQ(0, run.exit_code) << node;
  std::ifstream log(dir_.path() + "/log");
  std::vector<long long> starts;
  long long t;
  std::string word;
  while (log >> t >> word) starts.push_back(t);
  ASSERT_EQ(4u, starts.size());
  std::sort(starts.begin(), starts.end());
  EXPECT_GE(starts[2] - starts[0], 250'000'000LL) << "a third run started before any ended";
}

}  // namespace
