// Names given to SCR_Route_file while a checkpoint is written, in-process:
// relative names start in the working directory (here the prefix), "." and
// ".." are resolved, an absolute name inside the prefix is taken as it is,
// and anything outside the prefix or inside its .scr/ is refused. The common
// case (a plain relative name) takes a shortcut; these are its answers and
// the long way's, which must agree.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

TEST(RuntimeInProcess, RoutedNamesResolveAgainstTheWorkingDirectory) {
  SimJob job;
  job.set("SCR_FLUSH", "0");
  const std::string prefix = job.prefix();
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(rt.start_output("names.1", 1).ok());
    auto routed = [&](const std::string& name) {
      auto path = rt.route_file(name);
      EXPECT_TRUE(path.ok()) << name << ": " << path.status().to_string();
      return path.ok() ? *path : std::string();
    };
    auto ends_with = [](const std::string& s, const std::string& tail) {
      return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    std::string r = std::to_string(world.rank());
    std::string plain = routed("names.1/d/rank_" + r + ".dat");  // the shortcut
    EXPECT_TRUE(ends_with(plain, "/scr.dataset.1/names.1/d/rank_" + r + ".dat")) << plain;
    EXPECT_EQ(routed("./names.1/d/rank_" + r + ".dat"), plain);
    EXPECT_EQ(routed("names.1/x/../d/rank_" + r + ".dat"), plain);
    EXPECT_EQ(routed("names.1//d/rank_" + r + ".dat"), plain);
    EXPECT_EQ(routed(prefix + "/names.1/d/rank_" + r + ".dat"), plain);
    for (const std::string& bad : std::vector<std::string>{"../outside_" + r, ".scr/x" + r, ".scr", "names.1/../.scr/y" + r, ".",
                            "/elsewhere/rank_" + r})
      EXPECT_EQ(rt.route_file(bad).status().code(), Errc::invalid_argument) << bad;
    // A name that only starts like the metadata directory is a name.
    EXPECT_TRUE(ends_with(routed(".scrx/rank_" + r + ".dat"), "/.scrx/rank_" + r + ".dat"));
    auto written = [&](const std::string& path) {
      std::ofstream out(path);
      out << "bytes of " << path;
      return static_cast<bool>(out);
    };
    EXPECT_TRUE(written(plain));
    EXPECT_TRUE(written(routed(".scrx/rank_" + r + ".dat")));
    EXPECT_TRUE(rt.complete_output(true).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
}

}  // namespace
}  // namespace scr::rt::testing
