// scr_scavenge of a cached checkpoint ("one", new names ckpt/r<r>/a.dat and
// b.dat) whose node n3 is lost, so that rank 3's files are rebuilt in the
// prefix from the copies of the others, in process through an Env that
// fails a step after the copies: the rebuild itself (the prefix fills up
// while rank 3's files are written), or the index's record once the rebuild
// is done, or at the summary files; or, with two sets to rebuild, the
// second one's rebuild; or a rank's copy, into an empty directory that was
// there before. The dataset is not saved, and the prefix is left as
// the scavenge found it but for the index's bookkeeping: neither the copies
// nor what the rebuild or the record wrote stay behind to hold the space
// the next flush needs.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "io/fault_env.hpp"
#include "io/path.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "scavenge_scene.hpp"

namespace {

using namespace scr;
using scr::tools::testing::Scene;

// Every path below `dir`.
std::set<std::string> tree_of(const std::string& dir) {
  std::set<std::string> paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) paths.insert(e.path().string());
  return paths;
}

// The index's bookkeeping: the index and its lock. A record that fails
// takes its summary files (summary.scr, summary.scrpp, the rank2file maps)
// back with the dataset's .scr directory (runtime/prefix/flush_protocol.hpp).
bool bookkeeping(const std::string& prefix, const std::string& path) {
  return path == rt::prefix_scr_dir(prefix) || path == rt::prefix_index_path(prefix) ||
         path == rt::prefix_lock_path(prefix);
}

// What the scavenge added to the prefix, which held `before`, but for the
// index's bookkeeping.
std::vector<std::string> added(const std::string& prefix, const std::set<std::string>& before) {
  std::vector<std::string> out;
  for (const auto& path : tree_of(prefix))
    if (!before.count(path) && !bookkeeping(prefix, path)) out.push_back(path);
  return out;
}

// One dataset cached only, its rank 3 lost with node n3.
void one_cached_rank_3_lost(Scene& scene) {
  scene.write("one", 'o', false);
  scene.lose("n3");
}

// The scavenge ran and did not save "one", for the reason the Env made.
void expect_not_saved(const Result<tools::scavenge::Report>& report, Errc why) {
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->datasets.size(), 1u);
  const auto& one = report->datasets.front();
  EXPECT_EQ(one.state, tools::scavenge::Outcome::State::failed);
  EXPECT_EQ(one.error.code(), why) << one.error.message();
}

// The rename that would put the prefix's index in place fails, the second
// time (the first marks the scavenge begun), before it lands: the record
// of "one" never reaches the index. Whether `rebuilt` (a file of rank 3)
// was in the prefix then tells that the rebuild came first.
class IndexRecordRefused : public io::EnvWrapper {
 public:
  IndexRecordRefused(io::Env& target, std::string rebuilt) : EnvWrapper(target), rebuilt_(std::move(rebuilt)) {}
  Status rename(const std::string& from, const std::string& to) override {
    if (io::path::basename(to) == "index.scr" && ++index_renames_ == 2) {
      rebuilt_then_ = target().exists(rebuilt_);
      return Error(Errc::io_error, "the index's rename was refused");
    }
    return EnvWrapper::rename(from, to);
  }
  bool refused_after_rebuild() const { return index_renames_ >= 2 && rebuilt_then_; }

 private:
  std::string rebuilt_;
  int index_renames_ = 0;
  bool rebuilt_then_ = false;
};

TEST(ScavengeFailed, ARecordThatFailsTakesBackTheRebuiltFiles) {
  Scene scene;
  one_cached_rank_3_lost(scene);
  IndexRecordRefused env(io::Env::posix(), scene.prefix + "/ckpt/r3/a.dat");
  std::set<std::string> before = tree_of(scene.prefix);
  auto report = scene.scavenge_in_process(env);
  ASSERT_TRUE(env.refused_after_rebuild());
  ASSERT_NO_FATAL_FAILURE(expect_not_saved(report, Errc::io_error));
  EXPECT_EQ(added(scene.prefix, before), std::vector<std::string>{});
}

// Scavenges "one" (rank 3 lost) with the prefix full from the first write
// to a path containing `full_at` on: not saved, for want of space, and
// nothing added to the prefix but the index's bookkeeping.
Result<tools::scavenge::Report> scavenge_full_at(Scene& scene, const std::string& full_at) {
  one_cached_rank_3_lost(scene);
  io::FaultEnv env(io::Env::posix());
  env.fail_write(1, ENOSPC, full_at);
  std::set<std::string> before = tree_of(scene.prefix);
  auto report = scene.scavenge_in_process(env);
  expect_not_saved(report, Errc::no_space);
  EXPECT_EQ(added(scene.prefix, before), std::vector<std::string>{});
  return report;
}

// At SCR 3.1's rank2file map, once summary.scrpp is written: the record
// takes its summary files back, and the index keeps no entry of the
// dataset (a later scavenge or job records it afresh).
TEST(ScavengeFailed, ARecordThatFailsLeavesNoSummaryFileNorEntry) {
  Scene scene;
  auto report = scavenge_full_at(scene, "rank2file");
  ASSERT_TRUE(report.ok() && report->datasets.size() == 1u);
  auto idx = rt::PrefixIndex::load(io::Env::posix(), scene.prefix);
  ASSERT_TRUE(idx.ok()) << idx.status().to_string();
  EXPECT_FALSE(idx->has(report->datasets.front().id));
}

// Only the rebuild writes there: rank 3's cache is gone.
TEST(ScavengeFailed, ARebuildThatStopsPartWayLeavesNothingBehind) {
  Scene scene;
  (void)scavenge_full_at(scene, "/ckpt/r3/");
}

// Two sets to rebuild, {0, 2} and {1, 3} (XOR sets of 2 over 2 nodes, n1
// lost with ranks 2 and 3): the prefix fills up while rank 3's files are
// written, after rank 2's set was put in place. The rebuild takes that set
// back itself, the scavenge its copies.
TEST(ScavengeFailed, ARebuildThatStopsAfterASetLeavesNothingBehind) {
  Scene scene;
  scene.settings["SCR_SIM_NODES"] = "n0,n1";
  scene.settings["SCR_SET_SIZE"] = "2";
  scene.write("one", 'o', false);
  scene.lose("n1");
  io::FaultEnv full(io::Env::posix());
  full.fail_write(1, ENOSPC, "/ckpt/r3/");
  rt::testing::SeenAtMkdir env(full, scene.prefix + "/ckpt/r3", scene.prefix + "/ckpt/r2/a.dat");
  std::set<std::string> before = tree_of(scene.prefix);
  auto report = scene.scavenge_in_process(env);
  ASSERT_TRUE(env.seen()) << "rank 2's set was not in place when rank 3's failed";
  ASSERT_NO_FATAL_FAILURE(expect_not_saved(report, Errc::no_space));
  EXPECT_EQ(added(scene.prefix, before), std::vector<std::string>{});
}

// An empty ckpt/r1/ in the prefix before the scavenge (the application's,
// say), and the prefix fills up at rank 1's b.dat, after its a.dat: rank 1
// is lost too, beyond what XOR rebuilds. Its copy takes back a.dat, and the
// directory it was planned into stays, as it was there before.
TEST(ScavengeFailed, AFailedCopyKeepsAnEmptyDirectoryThatWasThereBefore) {
  Scene scene;
  one_cached_rank_3_lost(scene);
  const std::string r1 = scene.prefix + "/ckpt/r1";
  ASSERT_TRUE(io::make_dirs(io::Env::posix(), r1).ok());
  io::FaultEnv env(io::Env::posix());
  env.fail_write(1, ENOSPC, "/ckpt/r1/b.dat");
  std::set<std::string> before = tree_of(scene.prefix);
  auto report = scene.scavenge_in_process(env);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->datasets.size(), 1u);
  EXPECT_EQ(report->datasets.front().state, tools::scavenge::Outcome::State::failed);
  EXPECT_EQ(added(scene.prefix, before), std::vector<std::string>{});
  ASSERT_TRUE(std::filesystem::is_directory(r1)) << "the empty directory that was there before is gone";
  EXPECT_EQ(tree_of(r1), std::set<std::string>{}) << "rank 1's a.dat is still there";
}

}  // namespace
