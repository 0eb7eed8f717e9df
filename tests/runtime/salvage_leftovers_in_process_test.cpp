// A salvage that cannot make a cached checkpoint whole leaves nothing of it
// in the prefix: 4 in-process ranks on 4 simulated nodes write ckpt/r<r>/a.dat
// and b.dat (XOR, one set of 4, cache only); nodes n2 and n3 are lost (two
// members of the set, beyond XOR) and old rank 1's b.dat is gone from n1's
// cache, so its copy fails after a.dat. A job of 2 ranks on n0 and n1 then
// salvages at SCR_Init: the checkpoint cannot be made whole, and neither the
// copies (old rank 0's, old rank 1's a.dat) nor the directories they made
// may stay behind, while an empty directory that was there before stays.
// The same when the salvage fails after its rebuild, and when its rebuild
// stops part way.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "runtime/runtime.hpp"
#include "sim_job.hpp"

namespace {

using namespace scr;
namespace fs = std::filesystem;

constexpr size_t kStack = 1 << 20;

// XOR sets of 4 unless a test says otherwise.
struct Scene : rt::testing::SimDir {
  Scene() : SimDir("scr_salvage_left") { settings["SCR_SET_SIZE"] = "4"; }
};

// 4 ranks write ckpt/r<r>/a.dat and b.dat to the cache only.
void write_ckpt(const Scene& scene) {
  mpi::InProcess(4, kStack).run([&](mpi::Comm& world) {
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    ASSERT_TRUE((*rt)->start_output("ckpt", 1).ok());
    for (const char* f : {"a.dat", "b.dat"}) {
      auto path = (*rt)->route_file("ckpt/r" + std::to_string(world.rank()) + "/" + f);
      ASSERT_TRUE(path.ok()) << path.status().to_string();
      EXPECT_TRUE(io::write_file_atomic(io::Env::posix(), *path, std::string(5000, 'x')).ok());
    }
    EXPECT_TRUE((*rt)->complete_output(true).ok());
    EXPECT_TRUE((*rt)->finalize().ok());
  });
  EXPECT_FALSE(fs::exists(scene.prefix + "/ckpt")) << "flushed before the salvage";
}

// The checkpoint written, nodes n2 and n3 lost, old rank 1's cached b.dat gone.
void a_ckpt_that_cannot_be_made_whole(Scene& scene) {
  write_ckpt(scene);
  scene.lose("n2");
  scene.lose("n3");
  int gone = 0;
  for (const auto& e : fs::recursive_directory_iterator(scene.cache + "/n1"))
    if (e.path().string().ends_with("/ckpt/r1/b.dat")) gone += fs::remove(e.path()) ? 1 : 0;
  ASSERT_EQ(gone, 1) << "old rank 1's cached b.dat";
}

// A job of 2 ranks on n0 and n1: its salvage at SCR_Init fails, and it
// finds no checkpoint to restart from.
void restart_on_two(Scene& scene) {
  scene.settings["SCR_SIM_NODES"] = "n0,n1";
  mpi::InProcess(2, kStack).run([&](mpi::Comm& world) {
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    bool have = true;
    std::string name;
    EXPECT_TRUE((*rt)->have_restart(&have, &name).ok());
    EXPECT_FALSE(have) << name;
    EXPECT_TRUE((*rt)->finalize().ok());
  });
}

TEST(SalvageInProcess, ACheckpointThatCannotBeMadeWholeLeavesNothingInThePrefix) {
  Scene scene;
  ASSERT_NO_FATAL_FAILURE(a_ckpt_that_cannot_be_made_whole(scene));
  restart_on_two(scene);
  const std::string& prefix = scene.prefix;
  EXPECT_FALSE(fs::exists(prefix + "/ckpt/r1/a.dat")) << "the failed copy's file";
  EXPECT_FALSE(fs::exists(prefix + "/ckpt/r0/a.dat")) << "a whole copy's file";
  EXPECT_FALSE(fs::exists(prefix + "/ckpt")) << "the directories the copies made";
}

// The same with an empty ckpt/r1/ in the prefix before the salvage (the
// application's, say): old rank 1's failed copy and old rank 0's whole one
// are taken back with ckpt/r0/, which the salvage made; ckpt/r1/ stays.
TEST(SalvageInProcess, AFailedSalvageKeepsAnEmptyDirectoryThatWasThereBefore) {
  Scene scene;
  ASSERT_NO_FATAL_FAILURE(a_ckpt_that_cannot_be_made_whole(scene));
  ASSERT_TRUE(io::make_dirs(io::Env::posix(), scene.prefix + "/ckpt/r1").ok());
  restart_on_two(scene);
  ASSERT_TRUE(fs::is_directory(scene.prefix + "/ckpt/r1")) << "the directory that was there before";
  std::set<std::string> left;
  for (const auto& e : fs::recursive_directory_iterator(scene.prefix + "/ckpt"))
    left.insert(e.path().lexically_relative(scene.prefix).string());
  EXPECT_EQ(left, std::set<std::string>{"ckpt/r1"});
}

// One node lost: old rank 3's files are rebuilt into the prefix, then the
// summary cannot be written (the prefix is full). SCR_Init fails and keeps
// the cache, the checkpoint's only copy; the prefix keeps nothing of it, the
// rebuilt files included.
TEST(SalvageInProcess, RebuiltFilesGoWhenALaterStepFails) {
  Scene scene;
  write_ckpt(scene);
  scene.lose("n3");
  scene.settings["SCR_SIM_NODES"] = "n0,n1,n2";
  mpi::InProcess(3, kStack).run([&](mpi::Comm& world) {
    io::FaultEnv full(io::Env::posix());
    full.fail_write(1, ENOSPC, "summary.scrpp");
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world, &full);
    EXPECT_EQ(rt.status().code(), Errc::no_space) << rt.status().to_string();
  });
  EXPECT_FALSE(fs::exists(scene.prefix + "/ckpt/r3/a.dat")) << "a rebuilt file";
  EXPECT_FALSE(fs::exists(scene.prefix + "/ckpt/r0/a.dat")) << "a copied file";
  EXPECT_FALSE(fs::exists(scene.prefix + "/ckpt")) << "the directories";
  int cached = 0;
  for (const auto& e : fs::recursive_directory_iterator(scene.cache))
    cached += e.path().filename() == "a.dat" ? 1 : 0;
  EXPECT_EQ(cached, 3) << "the cache, the only copy, is kept";
}

// Every path below `dir` but those in .scr, which keeps the salvage's
// bookkeeping (the index, the job's lock and id, the event log).
std::set<std::string> outside_scr(const std::string& dir) {
  std::set<std::string> paths;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (it->path().filename() == ".scr") {
      it.disable_recursion_pending();
      continue;
    }
    paths.insert(it->path().string());
  }
  return paths;
}

// Ranks 0, 1 on n0 and 2, 3 on n1, in XOR sets of 2, one member per node:
// {0, 2} and {1, 3}. With n1 lost, a job of one process on n0 copies ranks
// 0 and 1 and rebuilds both sets, {0, 2} first; the prefix fills up while
// rank 3's files are written, after rank 2's were put in place. The rebuild
// takes back what it wrote, rank 2's files and the directories it made
// included, and the salvage its copies: the prefix is as before, the
// directory and file that were there before intact.
TEST(SalvageInProcess, ARebuildThatStopsPartWayLeavesThePrefixAsItWas) {
  Scene scene;
  scene.settings["SCR_SIM_NODES"] = "n0,n1";
  scene.settings["SCR_SET_SIZE"] = "2";
  write_ckpt(scene);
  scene.lose("n1");
  ASSERT_TRUE(io::make_dirs(io::Env::posix(), scene.prefix + "/ckpt").ok());
  ASSERT_TRUE(io::write_file_atomic(io::Env::posix(), scene.prefix + "/ckpt/notes.txt", "mine").ok());
  std::set<std::string> before = outside_scr(scene.prefix);
  scene.settings["SCR_SIM_NODES"] = "n0";
  bool set_done_first = false;
  mpi::InProcess(1, kStack).run([&](mpi::Comm& world) {
    io::FaultEnv full(io::Env::posix());
    full.fail_write(1, ENOSPC, "/ckpt/r3/");
    rt::testing::SeenAtMkdir env(full, scene.prefix + "/ckpt/r3", scene.prefix + "/ckpt/r2/a.dat");
    auto rt = rt::Runtime::init(rt::testing::config_from(scene.settings, scene.prefix), world, &env);
    EXPECT_EQ(rt.status().code(), Errc::no_space) << rt.status().to_string();
    set_done_first = env.seen();
  });
  ASSERT_TRUE(set_done_first) << "rank 2's set was not in place when rank 3's failed";
  EXPECT_EQ(outside_scr(scene.prefix), before);
  auto notes = io::read_file(io::Env::posix(), scene.prefix + "/ckpt/notes.txt");
  EXPECT_TRUE(notes.ok() && *notes == "mine");
}

// 4 ranks write checkpoint `name` (rt::testing::write_same_names); `flush`:
// also to the prefix.
void write_named(Scene& scene, const std::string& name, char fill, bool flush) {
  scene.settings["SCR_FLUSH"] = flush ? "1" : "0";
  rt::testing::write_same_names(scene.settings, scene.prefix, name, fill);
  scene.settings.erase("SCR_FLUSH");
}

// "one" flushed ('o' bytes), then "two" ('t') under the same names, in
// cache only.
void one_flushed_then_two_cached(Scene& scene) {
  write_named(scene, "one", 'o', true);
  write_named(scene, "two", 't', false);
}

// The salvage of a checkpoint whose files reuse the names of an older
// flushed one: old ranks 0 and 1 are copied, the checkpoint cannot be made
// whole (n2 and n3 lost), and the copies go again. The older checkpoint's
// files were never replaced: it is still whole and the one to restart from.
TEST(SalvageInProcess, AFailedSalvageLeavesAnOlderCheckpointOfTheSameNames) {
  Scene scene;
  one_flushed_then_two_cached(scene);
  scene.lose("n2");
  scene.lose("n3");
  scene.settings["SCR_SIM_NODES"] = "n0,n1";
  rt::testing::expect_offered(scene.settings, scene.prefix, 2, "one");
  rt::testing::expect_same_names(scene.prefix, 'o');
}

// The same names, one node lost: old rank 3's files are rebuilt from the
// copies, which must therefore hold the newer checkpoint's bytes at their
// names before the rebuild reads them. The salvage makes "two" whole and the
// job restarts from it.
TEST(SalvageInProcess, ASalvageRebuildsFromCopiesThatReuseAnOlderCheckpointsNames) {
  Scene scene;
  one_flushed_then_two_cached(scene);
  scene.lose("n3");
  scene.settings["SCR_SIM_NODES"] = "n0,n1,n2";
  rt::testing::expect_offered(scene.settings, scene.prefix, 3, "two");
  rt::testing::expect_same_names(scene.prefix, 't');
}

// The same salvage after a flush of "two" (dataset 2) was killed part-way
// over the older checkpoint's names: old rank 0's copy of a.dat and old
// rank 3's (on the node now lost) were partial temporaries, listed. Those
// must be settled as the killed flush left them (not recorded: removed)
// before the salvage records "two"; swept after, rank 3's partial copy
// would replace the file the salvage rebuilt, and rank 0's stay forever.
TEST(SalvageInProcess, AKilledFlushOfTheSameCheckpointIsSweptBeforeTheSalvage) {
  Scene scene;
  one_flushed_then_two_cached(scene);
  rt::testing::leave_killed_copy(scene.prefix, 2, 0, "ckpt/r0/a.dat");
  rt::testing::leave_killed_copy(scene.prefix, 2, 3, "ckpt/r3/a.dat");
  scene.lose("n3");
  scene.settings["SCR_SIM_NODES"] = "n0,n1,n2";
  rt::testing::expect_offered(scene.settings, scene.prefix, 3, "two");
  auto idx = rt::PrefixIndex::load(io::Env::posix(), scene.prefix);
  ASSERT_TRUE(idx.ok());
  EXPECT_EQ(idx->find_name("two"), 2) << "the dataset the killed flush's lists name";
  rt::testing::expect_same_names(scene.prefix, 't');
}

}  // namespace
