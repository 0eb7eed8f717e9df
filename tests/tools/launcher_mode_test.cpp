// The scr_run command line SCR's launcher commands build: nodes and spares
// from SCR_SIM_NODES or the resource manager's hosts, real hosts pinned with
// each launcher's own option.
#include "tools/scr_run/launcher_mode.hpp"

#include <gtest/gtest.h>

namespace {

using V = std::vector<std::string>;
using scr::tools::run::runner_args;

TEST(LauncherMode, SimulatedNodesSplitIntoRunNodesAndSpares) {
  EXPECT_EQ((V{"scr_run", "--launcher", "srun", "--nodes", "n0,n1,n2,n3", "--spares", "n4", "--",
               "-n", "8", "./app"}),
            runner_args("srun", {"n0", "n1", "n2", "n3", "n4"}, {"vm"}, 4, "/bin/check",
                        {"-n", "8", "./app"}));
  EXPECT_EQ((V{"scr_run", "--launcher", "mpirun", "--nodes", "n0,n1", "--", "-n", "4", "./app"}),
            runner_args("mpirun", {"n0", "n1"}, {}, 0, "", {"-n", "4", "./app"}));
}

TEST(LauncherMode, RealHostsArePinnedWhenThereAreSpares) {
  EXPECT_EQ((V{"scr_run", "--launcher", "srun", "--real-nodes", "--nodes", "a1,a2", "--spares", "a3",
               "--down-check", "/bin/check", "--", "--nodelist={nodes}", "-n", "8", "./app"}),
            runner_args("srun", {}, {"a1", "a2", "a3"}, 2, "/bin/check", {"-n", "8", "./app"}));
  EXPECT_EQ((V{"scr_run", "--launcher", "mpirun", "--real-nodes", "--nodes", "a1", "--spares", "a2",
               "--", "--host", "{nodes}", "./app"}),
            runner_args("mpirun", {}, {"a1", "a2"}, 1, "", {"./app"}));
  // flux: the pin goes after the subcommand
  EXPECT_EQ((V{"scr_run", "--launcher", "flux", "--real-nodes", "--nodes", "a1", "--spares", "a2",
               "--", "run", "--requires=host:{nodes}", "-N", "1", "./app"}),
            runner_args("flux", {}, {"a1", "a2"}, 1, "", {"run", "-N", "1", "./app"}));
  // every host needed: no pin, no spares
  EXPECT_EQ((V{"scr_run", "--launcher", "srun", "--real-nodes", "--nodes", "a1,a2", "--down-check",
               "/bin/check", "--", "./app"}),
            runner_args("srun", {}, {"a1", "a2"}, 0, "/bin/check", {"./app"}));
}

TEST(LauncherMode, WithoutNodesTheLauncherGetsTheWords) {
  EXPECT_EQ((V{"scr_run", "--launcher", "mpirun", "--", "-n", "2", "./app"}),
            runner_args("mpirun", {}, {}, 3, "", {"-n", "2", "./app"}));
}

}  // namespace
