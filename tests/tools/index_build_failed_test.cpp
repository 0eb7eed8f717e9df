// scr_index --build that stops part way, in process through an Env that
// fails on purpose. 4 in-process ranks on 2 simulated nodes (ranks 0, 1 on
// n0, 2, 3 on n1) flush ckpt/r<r>/a.dat and b.dat with XOR sets of 2, one
// member per node: {0, 2} and {1, 3}. Rank 2 lost its files (its directory
// and redundancy file stay) and rank 3 everything (its directory and
// redundancy file too), so both sets are rebuilt, {0, 2} first. The prefix
// fills up while rank 3's files are written, or the redundancy data of
// rank 3's set is damaged: rank 2's files were in place by then, and the
// rebuild takes them back with everything else it wrote, and the
// directories it made, leaving the prefix as it was. Run again, it rebuilds
// the dataset whole.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "sim_job.hpp"
#include "tools/common/cli.hpp"
#include "tools/scr_index/command.hpp"

namespace {

using namespace scr;
namespace fs = std::filesystem;

struct Scene : rt::testing::SimDir {
  Scene() : SimDir("scr_index_build") {
    settings["SCR_SIM_NODES"] = "n0,n1";
    settings["SCR_SET_SIZE"] = "2";
    settings["SCR_FLUSH"] = "1";
    rt::testing::write_same_names(settings, prefix, "one", 'o');
  }

  std::string red_dir() const { return rt::prefix_dataset_dir(prefix, 1); }
  // The redundancy file of rank `rank` (reddesc.<rank>.xor.grp_...).
  std::string redundancy_file(int rank) const {
    for (const auto& e : fs::directory_iterator(red_dir()))
      if (e.path().filename().string().starts_with("reddesc." + std::to_string(rank) + ".")) return e.path();
    ADD_FAILURE() << "no redundancy file of rank " << rank << " in " << red_dir();
    return "";
  }
  // Rank 2 loses its files, rank 3 its files, directory and redundancy file.
  void lose_ranks_2_and_3() const {
    for (const char* f : {"a.dat", "b.dat"}) ASSERT_TRUE(fs::remove(prefix + "/ckpt/r2/" + f));
    ASSERT_GT(fs::remove_all(prefix + "/ckpt/r3"), 0u);
    ASSERT_TRUE(fs::remove(redundancy_file(3)));
  }
  // scr_index --build one, through `env`: its exit code.
  int build(io::Env& env) const {
    tools::Cli cli("scr_index");
    tools::index_cmd::Request req{env, cli, prefix, "one"};
    return tools::index_cmd::build_dataset(req);
  }

};

// Every path below `dir`, with a file's bytes ("/" for a directory).
using Snapshot = std::map<std::string, std::string>;
Snapshot snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_directory()) {
      out[e.path()] = "/";
      continue;
    }
    std::ifstream in(e.path(), std::ios::binary);
    out[e.path()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

// The paths added, gone or changed since `before` ("" when none).
std::string changes(const Snapshot& before, const Snapshot& after) {
  std::string out;
  for (const auto& [path, bytes] : after)
    if (auto it = before.find(path); it == before.end()) out += " added " + path;
    else if (it->second != bytes) out += " changed " + path;
  for (const auto& [path, bytes] : before)
    if (!after.count(path)) out += " gone " + path;
  return out;
}

// Run again without faults, the rebuild puts every file back.
void expect_rebuilt_whole(const Scene& scene) {
  EXPECT_EQ(scene.build(io::Env::posix()), tools::exit_code::ok);
  rt::testing::expect_same_names(scene.prefix, 'o');
  EXPECT_TRUE(fs::exists(scene.redundancy_file(3)));
}

TEST(IndexBuildFailed, ARebuildThatRunsOutOfSpaceLeavesThePrefixAsItWas) {
  Scene scene;
  ASSERT_NO_FATAL_FAILURE(scene.lose_ranks_2_and_3());
  auto before = snapshot(scene.prefix);
  io::FaultEnv full(io::Env::posix());
  full.fail_write(1, ENOSPC, "/ckpt/r3/");
  rt::testing::SeenAtMkdir env(full, scene.prefix + "/ckpt/r3", scene.prefix + "/ckpt/r2/a.dat");
  EXPECT_EQ(scene.build(env), tools::exit_code::failed);
  ASSERT_TRUE(env.seen()) << "rank 2's set was not in place when rank 3's failed";
  EXPECT_EQ(changes(before, snapshot(scene.prefix)), "");
  expect_rebuilt_whole(scene);
}

// Rank 1's redundancy file, which rank 3's rebuild reads, damaged past its
// header (no check before the rebuild sees it): rank 3's files come out
// wrong and fail their CRC32C.
TEST(IndexBuildFailed, ARebuildFromDamagedDataLeavesThePrefixAsItWas) {
  Scene scene;
  ASSERT_NO_FATAL_FAILURE(scene.lose_ranks_2_and_3());
  std::string damaged = scene.redundancy_file(1);
  std::string good;
  {
    std::ifstream in(damaged, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  // A byte of its XOR data, in the middle (its end is padding).
  ASSERT_GT(good.size(), 10000u);
  size_t at = good.size() - 5000;
  {
    std::fstream out(damaged, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(at));
    out.put(static_cast<char>(good[at] ^ 0x5a));
  }
  auto before = snapshot(scene.prefix);
  rt::testing::SeenAtMkdir env(io::Env::posix(), scene.prefix + "/ckpt/r3", scene.prefix + "/ckpt/r2/a.dat");
  EXPECT_EQ(scene.build(env), tools::exit_code::bad_data);
  ASSERT_TRUE(env.seen()) << "rank 2's set was not in place when rank 3's failed";
  EXPECT_EQ(changes(before, snapshot(scene.prefix)), "");
  std::ofstream(damaged, std::ios::binary | std::ios::trunc) << good;
  expect_rebuilt_whole(scene);
}

}  // namespace
