// A node testing itself for scr_list_down_nodes (tools/scr_run/node_probe):
// the command each remote method runs, the verdict read from the answer, and
// real probes through a fake rsh agent that plays nodes which answer, are
// gone, hang, or lack their directory.
#include "tools/scr_run/node_probe.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "../io/temp_dir.hpp"

namespace {

using namespace scr::tools::run;
using Words = std::vector<std::string>;

ProbeConfig config(const std::string& remote) {
  ProbeConfig c;
  c.remote = remote;
  c.timeout_seconds = 2;
  c.dirs = {"/dev/shm", "/tmp/cntl dir"};
  return c;
}

ProbeRun answered(const std::string& output, int exit_code = 0) {
  ProbeRun r;
  r.started = true;
  r.exit_code = exit_code;
  r.output = output;
  return r;
}

TEST(NodeProbeArgv, EachMethodReachesTheNode) {
  Words srun = probe_argv(config("srun"), "n3");
  ASSERT_GE(srun.size(), 12u);
  EXPECT_EQ((Words{"srun", "--overlap", "-N", "1", "-n", "1", "-w", "n3", "/bin/sh", "-c"}),
            Words(srun.begin(), srun.begin() + 10));
  EXPECT_EQ("/tmp/cntl dir", srun.back());  // words passed as they are, no shell between

  Words ssh = probe_argv(config("ssh"), "n3");
  EXPECT_EQ((Words{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=2", "n3"}),
            Words(ssh.begin(), ssh.end() - 1));
  // One shell line, the directory quoted for the node's shell.
  EXPECT_NE(std::string::npos, ssh.back().find("'/tmp/cntl dir'"));

  Words pdsh = probe_argv(config("pdsh"), "n3");
  EXPECT_EQ((Words{"pdsh", "-w", "n3"}), Words(pdsh.begin(), pdsh.end() - 1));

  Words agent = probe_argv(config("/opt/rsh -x"), "n3");
  EXPECT_EQ((Words{"/opt/rsh", "-x", "n3"}), Words(agent.begin(), agent.end() - 1));
}

TEST(NodeProbeVerdict, AnUpNodeWithUsableDirectoriesIsUp) {
  auto c = config("ssh");
  EXPECT_FALSE(probe_verdict(c, "n1",
                             answered("banner\nSCR_PROBE_UP\nSCR_PROBE_SPACE 1000 10 /dev/shm\n")));
}

TEST(NodeProbeVerdict, EachFailureHasItsReason) {
  auto c = config("ssh");
  EXPECT_EQ("directory /tmp/cntl dir is missing",
            probe_verdict(c, "n1", answered("SCR_PROBE_UP\nSCR_PROBE_MISSING /tmp/cntl dir\n")));
  EXPECT_EQ("directory /dev/shm is not writable",
            probe_verdict(c, "n1", answered("SCR_PROBE_UP\nSCR_PROBE_READONLY /dev/shm\n")));
  EXPECT_EQ("cannot run a command there (ssh exit 255)", probe_verdict(c, "n1", answered("", 255)));
  // It answered but the command failed afterwards.
  EXPECT_EQ("cannot run a command there (ssh exit 1)",
            probe_verdict(c, "n1", answered("SCR_PROBE_UP\n", 1)));
  ProbeRun hung = answered("");
  hung.timed_out = true;
  EXPECT_EQ("did not answer within 2 s (ssh)", probe_verdict(c, "n1", hung));
}

TEST(NodeProbeVerdict, CapacityOrFreeSpaceBelowTheMinimum) {
  auto c = config("ssh");
  c.min_bytes = 1 << 20;  // 1 MiB; the answer is in KiB: capacity 2 MiB, 512 KiB free
  auto run = answered("SCR_PROBE_UP\nSCR_PROBE_SPACE 2048 512 /tmp/cntl dir\n");
  EXPECT_FALSE(probe_verdict(c, "n1", run));
  c.free = true;
  auto why = probe_verdict(c, "n1", run);
  ASSERT_TRUE(why);
  EXPECT_EQ(0u, why->find("directory /tmp/cntl dir has 512"));
  EXPECT_NE(std::string::npos, why->find("free, below the minimum 1"));
  c.free = false;
  c.min_bytes = 4 << 20;
  why = probe_verdict(c, "n1", run);
  ASSERT_TRUE(why);
  EXPECT_NE(std::string::npos, why->find("capacity, below the minimum"));
}

TEST(NodeProbeVerdict, PdshPrefixesAreStrippedAndItsStatusIgnored) {
  auto c = config("pdsh");
  EXPECT_FALSE(probe_verdict(c, "n1", answered("n1: SCR_PROBE_UP\n", 1)));
  EXPECT_EQ("directory /dev/shm is missing",
            probe_verdict(c, "n1", answered("n1: SCR_PROBE_UP\nn1: SCR_PROBE_MISSING /dev/shm\n")));
  EXPECT_TRUE(probe_verdict(c, "n1", answered("pdsh@host: n1: ssh exited with exit code 255\n", 1)));
}

TEST(NodeProbeVerdict, AMethodThatCannotStartJudgesNothing) {
  ProbeRun r;
  r.started = false;
  EXPECT_FALSE(probe_verdict(config("ssh"), "n1", r));
}

// A fake rsh agent: node "gone" is unreachable (ssh's 255), "slow" hangs,
// every other node runs the line in <root>/<node>, so relative directories
// are that node's own.
class FakeCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    agent_ = dir_ / "agent";
    std::ofstream(agent_) << "#!/bin/sh\n"
                             "node=\"$1\"; shift\n"
                             "case \"$node\" in\n"
                             "  gone) exit 255 ;;\n"
                             "  slow) exec sleep 30 ;;\n"
                             "esac\n"
                             "cd \"" + dir_.path() + "/$node\" && exec /bin/sh -c \"$*\"\n";
    ::chmod(agent_.c_str(), 0755);
    for (const char* n : {"good", "nodir", "gone", "slow"})
      std::filesystem::create_directories(dir_ / n);
    std::filesystem::create_directories(dir_ / "good/cache");
  }
  scr::testing::TempDir dir_;
  std::string agent_;
};

TEST_F(FakeCluster, DownNodesAreFoundWithinTheTimeout) {
  ProbeConfig c;
  c.remote = agent_;
  c.timeout_seconds = 2;
  c.dirs = {"cache"};
  std::vector<std::string> notes;
  auto t0 = std::chrono::steady_clock::now();
  auto down = probe_nodes(c, {"good", "nodir", "gone", "slow"}, &notes);
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(took, std::chrono::seconds(6));  // the hanging node is cut off, in parallel
  EXPECT_EQ(0u, down.count("good"));
  EXPECT_EQ("directory cache is missing", down["nodir"]);
  EXPECT_EQ("cannot run a command there (" + agent_ + " exit 255)", down["gone"]);
  EXPECT_EQ("did not answer within 2 s (" + agent_ + ")", down["slow"]);
  EXPECT_TRUE(notes.empty());
}

TEST_F(FakeCluster, NoMethodContactsNoNode) {
  std::vector<std::string> notes;
  EXPECT_TRUE(probe_nodes(ProbeConfig{}, {"gone"}, &notes).empty());
}

TEST_F(FakeCluster, AMissingMethodIsANoteNotEveryNodeDown) {
  ProbeConfig c;
  c.remote = dir_ / "no-such-agent";
  std::vector<std::string> notes;
  EXPECT_TRUE(probe_nodes(c, {"good", "gone"}, &notes).empty());
  ASSERT_EQ(1u, notes.size());
  EXPECT_NE(std::string::npos, notes[0].find("nodes not contacted"));
}

}  // namespace
