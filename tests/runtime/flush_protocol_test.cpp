// The index half of the flush protocol (runtime/prefix/flush_protocol.hpp), which
// the job's flushes, its salvage, scr_scavenge and scr_index all call: the
// CURRENT rule, the SCR_PREFIX_SIZE window, the summary before the marks
// (swept with a crash at every step) and the prefix lock. In process, no MPI.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "../io/temp_dir.hpp"
#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/flush_protocol.hpp"
#include "runtime/prefix/prefix_window.hpp"
#include "runtime/prefix/summary.hpp"

namespace {

using namespace scr;

kv::Tree checkpoint_desc(int id) {
  kv::Tree d;
  d.set_int("ID", id);
  d.set("NAME", "step." + std::to_string(id));
  d.set_int("FLAGS", rt::kFlagCheckpoint);
  d.set_int("CKPT", id);
  return d;
}

// A prefix with the dataset directories the copies would have made.
class FlushProtocol : public ::testing::Test {
 protected:
  io::Env& env = io::Env::posix();
  scr::testing::TempDir dir;
  std::string prefix = dir.path();
  std::set<int> outputs;  // ids flushed as checkpoint and output
  std::map<int, std::string> names;  // ids named otherwise than step.<id>

  kv::Tree desc(int id) const {
    kv::Tree d = checkpoint_desc(id);
    if (outputs.count(id)) d.set_int("FLAGS", rt::kFlagCheckpoint | rt::kFlagOutput);
    if (auto n = names.find(id); n != names.end()) d.set("NAME", n->second);
    return d;
  }

  // One rank's file, written to the prefix as the copy step leaves it.
  std::map<int, kv::Tree> copy_files(int id) {
    std::string rel = "step." + std::to_string(id) + "/rank_0.dat";
    std::filesystem::create_directories(prefix + "/step." + std::to_string(id));
    std::filesystem::create_directories(rt::prefix_dataset_dir(prefix, id));
    std::ofstream(prefix + "/" + rel) << "data of " << id;
    kv::Tree rank;
    rt::set_summary_files(rank, {{rel, 9, 1234u, false, std::nullopt}});
    return {{0, rank}};
  }

  // The files copied and the flush begun (saved): the lists to record.
  std::map<int, kv::Tree> begin(int id) {
    auto lists = copy_files(id);
    EXPECT_TRUE(rt::edit_prefix_index(env, prefix, [&](rt::PrefixIndex& idx) {
                  rt::mark_flush_begun(idx, desc(id));
                  return Status::Ok();
                }).ok());
    return lists;
  }

  // The end of the flush through `through`.
  Status end(io::Env& through, int id, const std::map<int, kv::Tree>& lists, rt::MarkPolicy policy = {}) {
    return rt::record_flushed(through, prefix, desc(id), 1, lists, 9, policy).status();
  }

  // The whole protocol for one dataset, each index edit saved.
  bool flush(int id, rt::MarkPolicy policy = {}) {
    auto lists = begin(id);
    auto current = rt::record_flushed(env, prefix, desc(id), 1, lists, 9, policy);
    EXPECT_TRUE(current.ok()) << current.status().to_string();
    return current.ok() && *current;
  }

  rt::PrefixIndex index() {
    auto idx = rt::PrefixIndex::load(env, prefix);
    EXPECT_TRUE(idx.ok());
    return std::move(idx).value();
  }
};

TEST_F(FlushProtocol, NewerLoadableCheckpointBecomesCurrent) {
  EXPECT_TRUE(flush(1));
  EXPECT_TRUE(flush(2));
  EXPECT_EQ(index().current(), "step.2");
  EXPECT_TRUE(index().loadable(2));
}

TEST_F(FlushProtocol, SavingAnOlderCheckpointLeavesCurrentOnTheNewer) {
  EXPECT_TRUE(flush(3));
  EXPECT_FALSE(flush(2));
  EXPECT_EQ(index().current(), "step.3");
  EXPECT_TRUE(index().loadable(2));
}

TEST_F(FlushProtocol, OlderCheckpointReplacesACurrentThatIsNoLongerLoadable) {
  flush(3);
  auto idx = index();
  rt::mark_flush_failed(idx, 3);
  ASSERT_TRUE(idx.save(env).ok());
  EXPECT_TRUE(flush(2));
  EXPECT_EQ(index().current(), "step.2");
}

TEST_F(FlushProtocol, FailedDatasetNeverBecomesCurrent) {
  flush(1);
  auto idx = index();
  rt::mark_flush_begun(idx, checkpoint_desc(2));
  rt::mark_flush_failed(idx, 2);
  EXPECT_FALSE(rt::mark_flushed(idx, checkpoint_desc(2), 9, {}));
  EXPECT_EQ(idx.current(), "step.1");
  EXPECT_FALSE(idx.loadable(2));
}

TEST_F(FlushProtocol, BegunFlushIsNotLoadableNorCurrent) {
  flush(1);
  begin(2);
  EXPECT_FALSE(index().loadable(2));
  EXPECT_EQ(index().current(), "step.1");
}

TEST_F(FlushProtocol, AdoptionWithoutTheCurrentRuleLeavesCurrent) {
  flush(1);
  rt::MarkPolicy adopt;
  adopt.choose_current = false;
  EXPECT_FALSE(flush(2, adopt));
  EXPECT_EQ(index().current(), "step.1");
}

TEST_F(FlushProtocol, WindowDeletesTheOldestBeyondPrefixSize) {
  rt::MarkPolicy window;
  window.prefix_size = 2;
  for (int id : {1, 2, 3}) flush(id, window);
  auto idx = index();
  EXPECT_FALSE(idx.has(1));
  EXPECT_TRUE(idx.loadable(2));
  EXPECT_TRUE(idx.loadable(3));
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  EXPECT_FALSE(std::filesystem::exists(rt::prefix_dataset_dir(prefix, 1)));
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.2/rank_0.dat"));
}

// SCR 3.1's window (scr_prefix_delete_sliding): a checkpoint also marked
// output takes its place among the newest, and is never deleted when older.
TEST_F(FlushProtocol, WindowCountsCheckpointsMarkedOutputAndKeepsThem) {
  rt::MarkPolicy window;
  window.prefix_size = 2;
  outputs = {2};
  for (int id : {1, 2, 3}) flush(id, window);
  auto idx = index();
  EXPECT_FALSE(idx.has(1)) << "the window is step.3 and step.2";
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  flush(4, window);
  idx = index();
  for (int id : {2, 3, 4}) EXPECT_TRUE(idx.loadable(id)) << id;
  flush(5, window);
  idx = index();
  EXPECT_FALSE(idx.has(3));
  for (int id : {2, 4, 5}) EXPECT_TRUE(idx.loadable(id)) << id;
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.2/rank_0.dat"));
}

// Which files a kept dataset names is unknown when its summary cannot be
// read: the window deletes nothing rather than a file it may share. A doomed
// dataset whose summary cannot be read stays too (its files are unknown).
TEST_F(FlushProtocol, WindowDeletesNothingItCannotTellIsUnshared) {
  rt::MarkPolicy window;
  window.prefix_size = 2;
  for (int id : {1, 2}) flush(id, window);
  // Both summaries: either one alone still names the dataset's files.
  std::ofstream(rt::own_summary_path(prefix, 2), std::ios::trunc) << "damaged";
  std::ofstream(rt::summary_path(prefix, 2), std::ios::trunc) << "damaged";
  flush(3, window);
  EXPECT_TRUE(index().has(1));
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  std::ofstream(rt::own_summary_path(prefix, 1), std::ios::trunc) << "damaged";
  std::ofstream(rt::summary_path(prefix, 1), std::ios::trunc) << "damaged";
  std::filesystem::remove(rt::own_summary_path(prefix, 2));  // no summary: names no file
  std::filesystem::remove(rt::summary_path(prefix, 2));
  flush(4, window);
  auto idx = index();
  EXPECT_TRUE(idx.has(1)) << "a dataset whose files are unknown was dropped";
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  EXPECT_TRUE(std::filesystem::exists(rt::prefix_dataset_dir(prefix, 1)));
  EXPECT_FALSE(idx.has(2));  // its summary gone, its files are not listed
}

TEST_F(FlushProtocol, WindowKeepsAnOldDatasetJustSavedAndTheNewerOnes) {
  rt::MarkPolicy window;
  window.prefix_size = 2;
  flush(2, window);
  flush(3, window);
  flush(1, window);  // a scavenge of an old checkpoint
  auto idx = index();
  for (int id : {1, 2, 3}) EXPECT_TRUE(idx.loadable(id)) << id;
  EXPECT_EQ(idx.current(), "step.3");
}

// A job run again from its start in the same prefix writes its names again:
// as in SCR 3.1 the index then lists each name once, the newest; the older
// entry's files stay. Until the new flush is recorded the older one stays.
TEST_F(FlushProtocol, ANameListsOneDatasetOnceTheNewerIsRecorded) {
  names = {{0, "output_10"}, {1, "output_5"}, {2, "output_10"}, {3, "output_5"}};
  flush(1);
  flush(2);
  auto lists = begin(3);
  EXPECT_TRUE(index().loadable(1)) << "a flush not yet recorded dropped the older entry";
  ASSERT_TRUE(end(env, 3, lists).ok());
  auto idx = index();
  EXPECT_FALSE(idx.has(1));
  EXPECT_TRUE(idx.loadable(2));
  EXPECT_TRUE(idx.loadable(3));
  EXPECT_EQ(idx.find_name("output_5"), 3);
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  // Saving an older dataset of a name keeps the newer entry.
  flush(0);
  EXPECT_TRUE(index().loadable(2));
  EXPECT_TRUE(index().loadable(0));
}

// A newer dataset that takes a name and fails (its flush, or the dataset
// itself) leaves the older one of that name in the index, and the name
// keeps meaning the older one: for CURRENT, for the restart's order and for
// a lookup by name. Once a newer one is flushed, the name is its.
TEST_F(FlushProtocol, ANameMeansItsNewestWholeDataset) {
  names = {{1, "ckpt.2"}, {2, "ckpt.4"}, {3, "ckpt.2"}, {4, "ckpt.4"}, {5, "ckpt.2"}};
  flush(1);
  flush(2);
  ASSERT_TRUE(rt::edit_prefix_index(env, prefix, [&](rt::PrefixIndex& idx) {
                idx.set_current("ckpt.2");
                rt::mark_flush_begun(idx, desc(3));
                rt::mark_flush_failed(idx, 3);
                rt::mark_flush_begun(idx, desc(4));  // never finished
                return Status::Ok();
              }).ok());
  auto idx = index();
  ASSERT_TRUE(idx.has(3));
  EXPECT_EQ(idx.find_name("ckpt.2"), 1);
  EXPECT_EQ(idx.find_name("ckpt.4"), 2);
  EXPECT_EQ(idx.fetch_order(""), (std::vector<int>{1}));
  EXPECT_EQ(idx.fetch_order("ckpt.4"), (std::vector<int>{2, 1}));
  // Neither whole: the newest of the name.
  ASSERT_TRUE(rt::edit_prefix_index(env, prefix, [&](rt::PrefixIndex& i) {
                i.mark_failed(1);
                return Status::Ok();
              }).ok());
  EXPECT_EQ(index().find_name("ckpt.2"), 3);
  flush(5);
  EXPECT_EQ(index().find_name("ckpt.2"), 5);
}

TEST_F(FlushProtocol, ForgettingTheCurrentDatasetClearsCurrent) {
  flush(1);
  auto idx = index();
  rt::forget_dataset(env, prefix, idx, 1);
  EXPECT_FALSE(idx.has(1));
  EXPECT_EQ(idx.current(), "");
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
}

// A crash at every step of the end of the flush: the dataset is loadable
// only if its summary is whole, and CURRENT then names it or the old one.
TEST_F(FlushProtocol, CrashAtAnyStepLeavesNoLoadableDatasetWithoutSummary) {
  flush(1);
  auto lists = begin(2);
  std::string index_file = prefix + "/.scr/index.scr";
  std::string begun = [&] {
    std::ifstream in(index_file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  int crashes_not_loadable = 0;
  for (int step = 1;; ++step) {
    std::filesystem::remove(rt::own_summary_path(prefix, 2));
    std::filesystem::remove(rt::summary_path(prefix, 2));
    std::ofstream(index_file, std::ios::binary | std::ios::trunc) << begun;
    io::FaultEnv faulty(env);
    faulty.crash_at_step(step);
    (void)end(faulty, 2, lists);
    auto idx = index();
    auto summary = io::read_tree(env, rt::own_summary_path(prefix, 2));
    if (idx.loadable(2)) {
      ASSERT_TRUE(summary.ok()) << "step " << step << ": loadable without its summary";
      EXPECT_EQ(summary->int_or("RANKS", 0), 1);
    }
    EXPECT_EQ(idx.current(), idx.loadable(2) ? "step.2" : "step.1") << "step " << step;
    if (!faulty.crashed()) {
      EXPECT_TRUE(idx.loadable(2)) << "no crash, yet not loadable";
      break;
    }
    if (!idx.loadable(2)) ++crashes_not_loadable;
    ASSERT_LT(step, 100);
  }
  EXPECT_GT(crashes_not_loadable, 0);
}

// A summary that cannot be written (a full or failing file system, not a
// crash: later steps still work) must not leave the index pointing at it.
TEST_F(FlushProtocol, SummaryThatCannotBeWrittenLeavesDatasetNotLoadable) {
  flush(1);
  auto lists = begin(2);
  io::FaultEnv faulty(env);
  faulty.fail_write(1, ENOSPC, "summary.scr");
  EXPECT_FALSE(end(faulty, 2, lists).ok());
  EXPECT_FALSE(index().loadable(2));
  EXPECT_EQ(index().current(), "step.1");
}

// Every file in dataset `id`'s .scr directory, with its bytes.
std::map<std::string, std::string> metadata_of(const std::string& prefix, int id) {
  std::map<std::string, std::string> out;
  std::string dir = rt::prefix_dataset_dir(prefix, id);
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    out[e.path().filename().string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

// A record that fails part way (the prefix full at SCR 3.1's map, after
// summary.scrpp was written; or at the index, after every summary file was)
// takes itself back: none of the summary files it wrote stays, nor the
// dataset's .scr directory, and the entry goes where the index can still
// be written. The checkpoint before stays loadable and current.
TEST_F(FlushProtocol, ARecordThatFailsTakesBackItsSummaryFilesAndItsEntry) {
  flush(1);
  for (const char* full_at : {"rank2file", "index.scr"}) {
    SCOPED_TRACE(full_at);
    auto lists = begin(2);
    io::FaultEnv faulty(env);
    faulty.fail_write(1, ENOSPC, full_at);
    Status st = end(faulty, 2, lists);
    EXPECT_EQ(st.code(), Errc::no_space) << st.to_string();
    EXPECT_EQ(metadata_of(prefix, 2), (std::map<std::string, std::string>{}));
    EXPECT_FALSE(std::filesystem::exists(rt::prefix_dataset_dir(prefix, 2)));
    auto idx = index();
    EXPECT_FALSE(idx.loadable(2));
    // The entry goes unless the index itself is what cannot be written.
    EXPECT_EQ(idx.has(2), std::string(full_at) == "index.scr");
    EXPECT_TRUE(idx.loadable(1));
    EXPECT_EQ(idx.current(), "step.1");
    EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
    EXPECT_FALSE(metadata_of(prefix, 1).empty());
  }
}

// SCR_PREFIX_SIZE deletes old checkpoints only once the new one is
// recorded: a record that fails costs no older checkpoint its files.
TEST_F(FlushProtocol, TheWindowDeletesNothingForARecordThatFails) {
  rt::MarkPolicy window;
  window.prefix_size = 1;
  flush(1, window);
  auto lists = begin(2);
  io::FaultEnv faulty(env);
  faulty.fail_write(1, ENOSPC, "index.scr");
  EXPECT_FALSE(end(faulty, 2, lists, window).ok());
  EXPECT_TRUE(index().loadable(1));
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  EXPECT_TRUE(std::filesystem::exists(rt::summary_path(prefix, 1)));
  // Recorded, it does.
  EXPECT_TRUE(flush(2, window));
  EXPECT_FALSE(index().has(1));
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
}

// The index can be saved `saves` more times, then fails at its rename (an
// I/O error): with one, the record lands and the window's save does not.
class IndexSavesLeft : public io::EnvWrapper {
 public:
  IndexSavesLeft(io::Env& target, int saves) : EnvWrapper(target), left_(saves) {}
  Status rename(const std::string& from, const std::string& to) override {
    if (to.ends_with("/.scr/index.scr") && left_-- <= 0) return Error(Errc::io_error, "rename to " + to);
    return EnvWrapper::rename(from, to);
  }

 private:
  int left_;
};

// Files whose path contains `part` cannot be removed.
class UnlinkRefused : public io::EnvWrapper {
 public:
  UnlinkRefused(io::Env& target, std::string part) : EnvWrapper(target), part_(std::move(part)) {}
  Status unlink(const std::string& path) override {
    if (path.find(part_) != std::string::npos) return Error(Errc::permission, "refused: " + path);
    return EnvWrapper::unlink(path);
  }

 private:
  std::string part_;
};

// The window forgets old checkpoints in the index before it deletes their
// files: when that save fails, they stay listed and stay whole, and the
// next flush deletes them.
TEST_F(FlushProtocol, TheWindowDeletesNoFileWhenItsIndexSaveFails) {
  rt::MarkPolicy window;
  window.prefix_size = 1;
  flush(1, window);
  auto lists = begin(2);
  IndexSavesLeft faulty(env, 1);
  EXPECT_TRUE(end(faulty, 2, lists, window).ok()) << "the record itself landed";
  auto idx = index();
  EXPECT_TRUE(idx.loadable(1));
  EXPECT_TRUE(idx.loadable(2));
  EXPECT_EQ(idx.current(), "step.2");
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat")) << "the index lists a checkpoint deleted";
  EXPECT_TRUE(std::filesystem::exists(rt::summary_path(prefix, 1)));
  EXPECT_TRUE(std::filesystem::exists(rt::own_summary_path(prefix, 1)));
  flush(3, window);
  idx = index();
  EXPECT_FALSE(idx.has(1));
  EXPECT_FALSE(idx.has(2));
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.2/rank_0.dat"));
}

// Called on its own, the window saves the index it changed, and the index
// it was given stays as the one on disk when that save fails.
TEST_F(FlushProtocol, TheWindowSavesTheIndexItselfOrChangesNothing) {
  for (int id : {1, 2}) flush(id);
  auto idx = index();
  IndexSavesLeft faulty(env, 0);
  rt::apply_prefix_window(faulty, prefix, 1, idx, 2);
  EXPECT_TRUE(idx.loadable(1)) << "the loaded index no longer matches the one on disk";
  EXPECT_TRUE(index().loadable(1));
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  rt::apply_prefix_window(env, prefix, 1, idx, 2);
  EXPECT_FALSE(idx.has(1));
  EXPECT_FALSE(index().has(1));
  EXPECT_TRUE(index().loadable(2));
  EXPECT_FALSE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
  EXPECT_FALSE(std::filesystem::exists(rt::prefix_dataset_dir(prefix, 1)));
}

// A file the window cannot delete once the index is saved stays in the
// prefix, unlisted: the index never names a checkpoint with files missing.
TEST_F(FlushProtocol, AFileTheWindowCannotDeleteStaysUnlisted) {
  rt::MarkPolicy window;
  window.prefix_size = 1;
  flush(1, window);
  auto lists = begin(2);
  UnlinkRefused faulty(env, "/step.1/");
  EXPECT_TRUE(end(faulty, 2, lists, window).ok());
  auto idx = index();
  EXPECT_FALSE(idx.has(1)) << "listed, though the window deleted part of it";
  EXPECT_TRUE(idx.loadable(2));
  EXPECT_EQ(idx.current(), "step.2");
  EXPECT_TRUE(std::filesystem::exists(prefix + "/step.1/rank_0.dat"));
}

// A dataset the index records is flushed again (its cached copy was never
// marked flushed), this time with another file list, and the record fails
// before or after its summary files took their names: the earlier record
// stays loadable and current throughout, its summary files byte for byte.
TEST_F(FlushProtocol, AFailedRecordOfADatasetRecordedBeforeLeavesTheEarlierRecordIntact) {
  flush(2);
  const auto earlier = metadata_of(prefix, 2);
  ASSERT_EQ(earlier.count("summary.scrpp"), 1u);
  ASSERT_EQ(earlier.count("rank2file"), 1u);
  for (const char* full_at : {"rank2file", "index.scr"}) {
    SCOPED_TRACE(full_at);
    auto lists = begin(2);
    EXPECT_TRUE(index().loadable(2)) << "flushing it again made the recorded dataset not loadable";
    kv::Tree& rank = lists[0];
    rt::set_summary_files(rank, {{"step.2/rank_0.dat", 9, 1234u, false, std::nullopt},
                                 {"step.2/more.dat", 3, 99u, false, std::nullopt}});
    io::FaultEnv faulty(env);
    faulty.fail_write(1, EIO, full_at);
    EXPECT_FALSE(end(faulty, 2, lists).ok());
    EXPECT_EQ(metadata_of(prefix, 2), earlier);
    EXPECT_TRUE(index().loadable(2));
    EXPECT_EQ(index().current(), "step.2");
  }
}

// An index whose rename landed but whose directory could not be synced:
// the record reached the index after all, so its summary files stay.
class SyncAfterIndexFails : public io::EnvWrapper {
 public:
  using EnvWrapper::EnvWrapper;
  Status rename(const std::string& from, const std::string& to) override {
    SCR_TRY(EnvWrapper::rename(from, to));
    if (to.ends_with("/index.scr")) index_renamed_ = true;
    return Status::Ok();
  }
  Status sync_dir(const std::string& path) override {
    if (index_renamed_) return Error(Errc::io_error, "sync of " + path + " failed");
    return EnvWrapper::sync_dir(path);
  }

 private:
  bool index_renamed_ = false;
};

TEST_F(FlushProtocol, ARecordWhoseLastStepFailsAfterItLandedKeepsItsSummary) {
  flush(1);
  auto lists = begin(2);
  SyncAfterIndexFails faulty(env);
  EXPECT_FALSE(end(faulty, 2, lists).ok());
  EXPECT_TRUE(index().loadable(2));
  auto meta = metadata_of(prefix, 2);
  EXPECT_EQ(meta.count("summary.scrpp") + meta.count("summary.scr") + meta.count("rank2file"), 3u);
  for (const auto& [name, bytes] : meta) EXPECT_EQ(name.find(".old."), std::string::npos) << name;
}

TEST_F(FlushProtocol, SecondEditorIsRefusedWhileTheLockIsHeld) {
  std::filesystem::create_directories(rt::prefix_scr_dir(prefix));
  auto first = rt::lock_prefix_index(io::Env::posix(), prefix);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  ASSERT_TRUE(first->has_value()) << "this file system has no flock";
  auto second = rt::lock_prefix_index(io::Env::posix(), prefix);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Errc::bad_state);
  first->reset();
  auto third = rt::lock_prefix_index(io::Env::posix(), prefix);
  EXPECT_TRUE(third.ok() && third->has_value());
}

}  // namespace

namespace {

// An index entry whose id is no dataset id (not a number, or beyond
// INT32_MAX) is ignored, never truncated onto another dataset's id.
TEST(PrefixIndexIds, EntriesWithoutAUsableIdAreIgnored) {
  scr::testing::TempDir dir;
  io::Env& env = io::Env::posix();
  kv::Tree t;
  for (const char* id : {"1", "abc", "4294967297", "-5", "99999999999999999999"}) {
    kv::Tree& e = t.child("DSET", id);
    e.set("NAME", std::string("n.") + id);
    e.set_int("FLAGS", rt::kFlagCheckpoint);
  }
  std::filesystem::create_directories(rt::prefix_scr_dir(dir.path()));
  ASSERT_TRUE(io::write_tree(env, rt::prefix_index_path(dir.path()), t).ok());
  auto idx = rt::PrefixIndex::load(env, dir.path());
  ASSERT_TRUE(idx.ok()) << idx.status().to_string();
  EXPECT_EQ(idx->ids(), std::vector<int>{1});
  EXPECT_EQ(idx->find_name("n.1"), std::optional<int>(1));
  EXPECT_FALSE(idx->find_name("n.4294967297").has_value());
}

}  // namespace
