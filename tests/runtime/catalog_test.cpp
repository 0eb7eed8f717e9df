// The cache catalog (runtime/cache/catalog.hpp), the one owner of a
// process's filemap: filemaps the previous release wrote load (and are
// written back byte for byte), a commit that fails leaves the filemap of the
// step before, a crash at any file-system step of a dataset's whole life
// leaves a filemap that is one of the committed ones, a copy handed over by
// another process is taken only when protected, and commit_agreed gives
// every process the same outcome.
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "kvtree/codec.hpp"
#include "mpi/in_process.hpp"
#include "runtime/cache/catalog.hpp"
#include "../io/temp_dir.hpp"

namespace scr::rt {
namespace {

using scr::testing::read_raw;
using scr::testing::TempDir;
using scr::testing::write_raw;

const std::string kFixtures = std::string(SCR_SOURCE_DIR) + "/tests/fixtures/filemap";

CacheLayout layout_in(const TempDir& dir) { return CacheLayout{dir / "cntl", dir / "cache", Identity{"u", "j", "n0"}}; }

// A new catalog of rank `rank` over `env`, its control directory made.
CacheCatalog open_catalog(io::Env& env, const TempDir& dir, int rank = 0) {
  EXPECT_TRUE(io::make_dirs(io::Env::posix(), dir / "cntl", 0700).ok());
  CacheCatalog c;
  c.open(env, layout_in(dir), rank);
  return c;
}

// What a later run finds: the filemaps of the control directory.
CacheCatalog reread(const TempDir& dir, int rank = 0) {
  CacheCatalog c = open_catalog(io::Env::posix(), dir, rank);
  c.take_filemaps(c.read_node_filemaps());
  return c;
}

// Made once per id: the bytes of a filemap must not depend on when a step ran.
// Not thread-safe (one map for the whole test binary): in-process ranks get
// theirs made before they start.
const kv::Tree& descriptor(int id, const std::string& name) {
  static std::map<int, kv::Tree> made;
  if (auto it = made.find(id); it != made.end()) return it->second;
  NewDataset d;
  d.id = id;
  d.name = name;
  d.flags = kFlagCheckpoint;
  d.ckpt = id;
  d.user = "u";
  d.job_id = "j";
  d.store = "/cache";
  return made[id] = make_descriptor(d);
}

kv::FileRecord record(const std::string& name, uint64_t size, uint32_t crc) {
  kv::FileRecord f;
  f.name = name;
  f.size = size;
  f.crc = crc;
  return f;
}

TEST(CacheCatalog, FilemapsOfThePreviousReleaseLoadTypedAndAreWrittenBackUnchanged) {
  TempDir dir;
  CacheCatalog c = open_catalog(io::Env::posix(), dir);
  for (const char* name : {"filemap_0.scr", "filemap_1.scr"})
    write_raw(dir / ("cntl/" + std::string(name)), read_raw(kFixtures + "/" + name));
  c.take_filemaps(c.read_node_filemaps());

  // Rank 0's own: step.10 complete, step.20 flushed, XOR over 2 ranks.
  EXPECT_EQ(c.ids(), (std::vector<int>{1, 2}));
  EXPECT_EQ(c.state(1), CacheState::complete);
  EXPECT_EQ(c.state(2), CacheState::flushed);
  EXPECT_FALSE(c.bypass(1));
  ASSERT_TRUE(c.info(1).has_value());
  EXPECT_EQ(c.info(1)->name, "step.10");
  EXPECT_EQ(c.info(2)->ckpt, 2);
  EXPECT_TRUE(c.info(2)->is_checkpoint());
  EXPECT_EQ(c.find_name("step.20"), 2);
  auto files = c.file_records(1);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "step.10/rank_0.dat");
  EXPECT_EQ(files[0].size, 16400u);
  ASSERT_TRUE(files[0].crc.has_value());
  EXPECT_EQ(*files[0].crc, 0xcb6b466cu);
  EXPECT_EQ(c.redundancy_files(1), (std::vector<std::string>{".scr/reddesc.0.xor.grp_1_of_1.mem_1_of_2.redset"}));
  ASSERT_NE(c.member_descs(1), nullptr);
  EXPECT_EQ(c.member_descs(1)->size(), 2u);
  EXPECT_EQ(c.member_descs(1)->get("1")->int_or("WRANKS", 0), 2);
  EXPECT_EQ(c.store(1), "/tmp/fmfix/cache");
  EXPECT_EQ(c.dataset_dir(1), "/tmp/fmfix/cache/u/scr.j/scr.dataset.1");

  // Rank 1's, adopted: the same datasets from its side.
  ASSERT_EQ(c.adopted().size(), 1u);
  const Filemap* other = c.adopted_of(1);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->ids(), (std::vector<int>{1, 2}));
  EXPECT_EQ(other->files(2), (std::vector<std::string>{"step.20/rank_1.dat"}));

  // Written back as it was read: the format is the previous release's.
  ASSERT_TRUE(c.commit().ok());
  EXPECT_EQ(read_raw(dir / "cntl/filemap_0.scr"), read_raw(kFixtures + "/filemap_0.scr"));
  // An entry taken apart and put together again (the form a copy is handed
  // over in) is the same entry.
  for (int id : other->ids()) {
    auto decoded = Filemap::decode(Filemap::encode(*other->entry_of(id)));
    ASSERT_TRUE(decoded.ok()) << decoded.status().to_string();
    EXPECT_TRUE(Filemap::encode(*decoded) == *other->find(id)) << "dataset " << id;
  }
}

TEST(CacheCatalog, AFilemapThatCannotBeReadIsIgnoredWithTheOthersKept) {
  TempDir dir;
  CacheCatalog c = open_catalog(io::Env::posix(), dir);
  std::string bytes = read_raw(kFixtures + "/filemap_1.scr");
  bytes[bytes.size() / 2] ^= 0x5a;  // caught by the tree's CRC32C
  write_raw(dir / "cntl/filemap_1.scr", bytes);
  write_raw(dir / "cntl/filemap_0.scr", read_raw(kFixtures + "/filemap_0.scr"));
  c.take_filemaps(c.read_node_filemaps());
  EXPECT_EQ(c.ids(), (std::vector<int>{1, 2}));
  EXPECT_TRUE(c.adopted().empty());
}

// The steps of one dataset's life in cache, each committed once as the
// runtime does: Start_output, Complete, an asynchronous flush begun and
// done, then deleted.
using Step = std::function<void(CacheCatalog&)>;
const std::vector<Step>& life() {
  static const std::vector<Step> steps = {
      [](CacheCatalog& c) { c.begin(3, descriptor(3, "ckpt.3"), "/cache"); },
      [](CacheCatalog& c) {
        c.record_routed(3, {"a.dat", "b.dat"});
        kv::Tree members;
        members.child("0").set_int("WRANKS", 1);
        c.record_protected(3, {record("a.dat", 10, 1), record("b.dat", 20, 2)}, {".scr/r.redset"}, members);
        c.record_totals(3, 30, 2);
        ASSERT_TRUE(c.transition(3, CacheState::complete).ok());
      },
      [](CacheCatalog& c) { ASSERT_TRUE(c.transition(3, CacheState::flushing).ok()); },
      [](CacheCatalog& c) { ASSERT_TRUE(c.transition(3, CacheState::flushed).ok()); },
      [](CacheCatalog& c) { c.forget(3); },
  };
  return steps;
}

// The filemap's bytes after each committed step ("" before the first).
std::vector<std::string> committed_states() {
  TempDir dir;
  CacheCatalog c = open_catalog(io::Env::posix(), dir);
  std::vector<std::string> out{""};
  for (const Step& step : life()) {
    step(c);
    EXPECT_TRUE(c.commit().ok());
    out.push_back(read_raw(dir / "cntl/filemap_0.scr"));
  }
  return out;
}

TEST(CacheCatalog, AFailedCommitLeavesTheFilemapOfTheStepBefore) {
  std::vector<std::string> states = committed_states();
  for (size_t fail = 0; fail < life().size(); ++fail) {
    for (int err : {ENOSPC, EIO}) {
      SCOPED_TRACE("commit of step " + std::to_string(fail + 1) + " fails with errno " + std::to_string(err));
      TempDir dir;
      io::FaultEnv env(io::Env::posix());
      CacheCatalog c = open_catalog(env, dir);
      for (size_t i = 0; i < fail; ++i) {
        life()[i](c);
        ASSERT_TRUE(c.commit().ok());
      }
      life()[fail](c);
      env.fail_write(1, err);  // counted from here: the commit's first write
      Status st = c.commit();
      ASSERT_FALSE(st.ok()) << "the injected failure never happened";
      EXPECT_EQ(st.code(), err == ENOSPC ? Errc::no_space : Errc::io_error) << st.to_string();
      EXPECT_NE(st.message().find("filemap_0.scr"), std::string::npos) << st.message();
      std::string on_disk = io::Env::posix().exists(dir / "cntl/filemap_0.scr") ? read_raw(dir / "cntl/filemap_0.scr") : "";
      EXPECT_EQ(on_disk, states[fail]) << "a failed commit changed the filemap";
      // A later commit of the same memory succeeds and writes all of it.
      env.disarm();
      ASSERT_TRUE(c.commit().ok());
      EXPECT_EQ(read_raw(dir / "cntl/filemap_0.scr"), states[fail + 1]);
    }
  }
}

// A crash at every file-system step of the dataset's life: the filemap the
// next run reads is one of the committed ones, never a torn one, and it is
// read with the state that commit recorded.
TEST(CacheCatalog, ACrashAtAnyStepLeavesACommittedFilemap) {
  std::vector<std::string> states = committed_states();
  int crash_points = 0;
  for (int n = 1;; ++n) {
    ASSERT_LT(n, 200) << "the dataset's life never got through";
    SCOPED_TRACE("crash at step " + std::to_string(n));
    TempDir dir;
    io::FaultEnv env(io::Env::posix());
    CacheCatalog c = open_catalog(env, dir);
    env.crash_at_step(n);
    size_t committed = 0;
    for (const Step& step : life()) {
      step(c);
      if (!c.commit().ok()) break;
      ++committed;
    }
    if (!env.crashed()) break;
    ++crash_points;
    std::string on_disk = io::Env::posix().exists(dir / "cntl/filemap_0.scr") ? read_raw(dir / "cntl/filemap_0.scr") : "";
    // The commit the crash interrupted may have landed (its rename done).
    EXPECT_TRUE(on_disk == states[committed] || on_disk == states[std::min(committed + 1, states.size() - 1)])
        << "the filemap on disk is none of the committed ones";
    CacheCatalog next = reread(dir);
    if (next.has(3)) {
      EXPECT_EQ(next.file_records(3).size(), next.state(3) == CacheState::routed ? 0u : 2u);
    }
  }
  EXPECT_GE(crash_points, static_cast<int>(life().size())) << "the sweep missed commits";
}

TEST(CacheCatalog, OnlyAProtectedCopyIsAdoptedFromAnotherProcess) {
  TempDir dir;
  CacheCatalog c = open_catalog(io::Env::posix(), dir);
  CacheEntry routed;
  routed.desc = descriptor(4, "ckpt.4");
  routed.store = "/cache";
  Status st = c.adopt(4, Filemap::encode(routed));
  EXPECT_EQ(st.code(), Errc::bad_state) << st.to_string();
  EXPECT_FALSE(c.has(4));

  CacheEntry done = routed;
  done.files = {record("x.dat", 5, 7)};
  done.redundancy_files = {".scr/x.redset"};
  done.member_descs.child("0").set_int("WRANKS", 1);
  done.state = CacheState::flushed;
  ASSERT_TRUE(c.adopt(4, Filemap::encode(done)).ok());
  EXPECT_EQ(c.state(4), CacheState::flushed);
  EXPECT_EQ(c.files(4), (std::vector<std::string>{"x.dat"}));
  EXPECT_EQ(c.redundancy_files(4), (std::vector<std::string>{".scr/x.redset"}));
  EXPECT_EQ(c.store(4), "/cache");
  EXPECT_EQ(c.info(4)->name, "ckpt.4");

  kv::Tree damaged = Filemap::encode(done);
  damaged.reset("FILELIST").set("not a file list", "");
  EXPECT_FALSE(c.adopt(5, damaged).ok());
  EXPECT_FALSE(c.has(5));
}

TEST(CacheCatalog, IdsAreNeverReused) {
  CacheCatalog c;
  c.open(io::Env::posix(), CacheLayout{"/nonexistent", "/nonexistent", {}}, 0);
  c.reserve_ids(7, 2);
  NewIds out = c.next_ids(false);
  EXPECT_EQ(out.id, 8);
  EXPECT_EQ(out.ckpt, 0);
  EXPECT_EQ(c.next_ids(false).id, 8) << "ids are taken only when reserved";
  c.reserve_ids(out.id, out.ckpt);
  NewIds ckpt = c.next_ids(true);
  EXPECT_EQ(ckpt.id, 9);
  EXPECT_EQ(ckpt.ckpt, 3);
  c.reserve_ids(ckpt.id, ckpt.ckpt);
  c.reserve_ids(4, 1);  // lower ids change nothing
  EXPECT_EQ(c.next_ids(true).id, 10);
  EXPECT_EQ(c.next_ids(true).ckpt, 4);
}

TEST(CacheCatalog, CommitAgreedGivesEveryProcessTheOutcome) {
  TempDir dir;
  ASSERT_TRUE(io::make_dirs(io::Env::posix(), dir / "cntl", 0700).ok());
  std::vector<Status> got(2);
  // Made before the ranks start: descriptor() fills a map the threads share.
  const kv::Tree& desc = descriptor(1, "ckpt.1");
  mpi::InProcess(2).run([&](mpi::Comm& world) {
    io::FaultEnv env(io::Env::posix());
    CacheCatalog c;
    c.open(env, layout_in(dir), world.rank());
    c.begin(1, desc, "/cache");
    if (world.rank() == 1) env.fail_write(1, ENOSPC);
    got[static_cast<size_t>(world.rank())] = c.commit_agreed(world);
  });
  for (const Status& st : got) {
    EXPECT_EQ(st.code(), Errc::no_space) << st.to_string();
    EXPECT_NE(st.message().find("rank 1"), std::string::npos) << st.message();
  }
  EXPECT_TRUE(io::Env::posix().exists(dir / "cntl/filemap_0.scr"));
  EXPECT_FALSE(io::Env::posix().exists(dir / "cntl/filemap_1.scr"));
}

TEST(CacheCatalog, AdoptedFilemapsAreWrittenBackOnlyWhileTheyListADataset) {
  TempDir dir;
  CacheCatalog c = open_catalog(io::Env::posix(), dir, 2);
  for (const char* name : {"filemap_0.scr", "filemap_1.scr"})
    write_raw(dir / ("cntl/" + std::string(name)), read_raw(kFixtures + "/" + name));
  c.take_filemaps(c.read_node_filemaps());
  EXPECT_TRUE(c.ids().empty());
  ASSERT_EQ(c.adopted().size(), 2u);
  // Rank 0's copies were handed over; rank 1 still lists dataset 2.
  c.forget_adopted(0, 1);
  c.forget_adopted(0, 2);
  auto dirs = c.forget_everywhere(1);
  EXPECT_EQ(dirs, (std::vector<std::string>{"/tmp/fmfix/cache/u/scr.j/scr.dataset.1"}));
  c.release_adopted();
  EXPECT_FALSE(io::Env::posix().exists(dir / "cntl/filemap_0.scr"));
  CacheCatalog next = reread(dir, 1);
  EXPECT_EQ(next.ids(), (std::vector<int>{2}));
  EXPECT_EQ(next.state(2), CacheState::flushed);
}

}  // namespace
}  // namespace scr::rt
