// The prefix metadata shared with SCR 3.1 (runtime/prefix/scr31/): SCR's index and
// halt file translated both ways without losing what SCR wrote, SCR's
// summary and rank2file map read with every damage or hostile name refused,
// an earlier SCR++'s summary adopted, and a summary SCR 3.1 wrote over a
// reused id preferred to SCR++'s stale one.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "../io/temp_dir.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/file_list.hpp"
#include "kvtree/veloc_file.hpp"
#include "runtime/prefix/halt_file.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/scr31/dataset_files.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"
#include "runtime/prefix/summary.hpp"

namespace scr::rt {
namespace {

io::Env& env() { return io::Env::posix(); }

// An index as SCR 3.1 writes it: ckpt.1 flushed, ckpt.2 begun, CURRENT ckpt.1.
kv::Tree scr_index() {
  kv::Tree t;
  t.set_int("VERSION", 2);
  t.set("CURRENT", "ckpt.1");
  for (int id : {1, 2}) {
    std::string name = "ckpt." + std::to_string(id);
    kv::Tree& e = t.child("DSET", std::to_string(id));
    e.set_int("COMPLETE", id == 1 ? 1 : 0);
    if (id == 1) e.set("FLUSHED", "2026-11-27T04:00:00");
    kv::Tree& d = e.child("DSET");
    d.set_int("ID", id);
    d.set("NAME", name);
    d.set_int("FLAG_CKPT", 1);
    d.set_int("FLAG_OUTPUT", 0);
    d.set_int("CKPT", id);
    d.set("JOBNAME", "campaign");
    e.set("SCR_ONLY", "kept");  // a key SCR++ does not know
    t.child("NAME", name).set_int("DSET", id);
  }
  return t;
}

TEST(Scr31Index, ViewOfScrsIndex) {
  auto view = scr31::index_from_shared(scr_index());
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_EQ(view->value_or("CURRENT", ""), "ckpt.1");
  const kv::Tree* e1 = view->at({"DSET", "1"});
  ASSERT_NE(e1, nullptr);
  EXPECT_EQ(e1->value_or("NAME", ""), "ckpt.1");
  EXPECT_EQ(e1->int_or("FLAGS", 0), 1);
  EXPECT_EQ(e1->int_or("FLUSHED", 0), 1);
  EXPECT_EQ(scr31::timestamp(e1->int_or("FLUSHED_AT", 0)), "2026-11-27T04:00:00") << "SCR's stamp, for scr_index";
  EXPECT_FALSE(view->at({"DSET", "2"})->has("FLUSHED")) << "a begun flush is not loadable";
}

TEST(Scr31Index, UnchangedEntriesAreWrittenBackAsRead) {
  kv::Tree read = scr_index();
  kv::Tree view = *scr31::index_from_shared(read);
  kv::Tree changed = view;
  changed.at({"DSET", "2"})->set_int("FAILED", 1);
  changed.child("DSET", "3").set("NAME", "scrpp.3");
  changed.at({"DSET", "3"})->set_int("FLAGS", 1);
  changed.at({"DSET", "3"})->set_int("CKPT", 3);
  changed.at({"DSET", "3"})->set_int("COMPLETE", 1);
  changed.at({"DSET", "3"})->set_int("FLUSHED", 1);
  kv::Tree out = scr31::index_to_shared(changed, read, view, 1800000000);
  EXPECT_EQ(*out.at({"DSET", "1"}), *read.at({"DSET", "1"}));
  const kv::Tree* failed = out.at({"DSET", "2"});
  EXPECT_TRUE(failed->has("FAILED"));
  EXPECT_EQ(failed->value_or("SCR_ONLY", ""), "kept");
  EXPECT_EQ(failed->at({"DSET"})->value_or("JOBNAME", ""), "campaign");
  const kv::Tree* ours = out.at({"DSET", "3"});
  EXPECT_EQ(ours->int_or("COMPLETE", 0), 1);
  EXPECT_EQ(ours->value_or("FLUSHED", ""), scr31::timestamp(1800000000));
  EXPECT_EQ(ours->at({"DSET"})->int_or("FLAG_CKPT", 0), 1);
  EXPECT_EQ(ours->at({"DSET"})->int_or("CKPT", 0), 3);
  EXPECT_EQ(out.at({"NAME", "scrpp.3"})->int_or("DSET", 0), 3);
  EXPECT_EQ(out.int_or("VERSION", 0), 2);
  // And back: the view is what SCR++ wrote.
  EXPECT_EQ(*scr31::index_from_shared(out)->at({"DSET", "3", "NAME"}), *changed.at({"DSET", "3", "NAME"}));
}

TEST(Scr31Index, KeysThatAreNoIdsAreKeptAndNeverCrash) {
  kv::Tree read = scr_index();
  read.child("DSET", "007").set("NAME", "odd");
  read.child("DSET", "-0").set("NAME", "odder");
  auto view = scr31::index_from_shared(read);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->get("DSET")->size(), 2u);
  kv::Tree out = scr31::index_to_shared(*view, read, *view, 0);
  EXPECT_TRUE(out.at({"DSET", "007"}));
  EXPECT_TRUE(out.at({"DSET", "-0"}));
}

TEST(Scr31Index, OtherVersionsAreRefusedClearly) {
  kv::Tree old = scr_index();
  old.set_int("VERSION", 1);
  EXPECT_EQ(scr31::index_from_shared(old).status().code(), Errc::unsupported);
  old.erase("VERSION");
  EXPECT_EQ(scr31::index_from_shared(old).status().code(), Errc::corrupt);
}

TEST(Scr31Halt, KeysAndTheFinishedMark) {
  kv::Tree theirs;
  theirs.set("ExitReason", scr31::kFinalizeCalled);
  theirs.set_int("CheckpointsLeft", 3);
  kv::Tree ours = scr31::halt_from_shared(theirs);
  EXPECT_FALSE(ours.has("EXIT_REASON")) << "SCR's library ignores its own finished mark";
  EXPECT_EQ(ours.value_or("FINALIZED", ""), scr31::kFinalizeCalled);
  EXPECT_EQ(ours.int_or("CHECKPOINTS", 0), 3);
  kv::Tree back = scr31::halt_to_shared(ours);
  EXPECT_EQ(back.value_or("ExitReason", ""), scr31::kFinalizeCalled);
  EXPECT_EQ(back.int_or("CheckpointsLeft", 0), 3);
  ours.set("EXIT_REASON", "maintenance");
  EXPECT_EQ(scr31::halt_to_shared(ours).value_or("ExitReason", ""), "maintenance");
}

// SCR 3.1's scr_halt opens halt.scr, flocks it and rewrites it in place: SCR++
// takes the same lock and writes into the same file, so neither loses the
// other's change.
TEST(Scr31Halt, LockedAndRewrittenInPlaceAsScrDoes) {
  testing::TempDir dir;
  kv::Tree halt;
  halt.set_int("CHECKPOINTS", 5);
  ASSERT_TRUE(write_halt(env(), dir.path(), halt).ok());
  int fd = ::open(halt_path(dir.path()).c_str(), O_RDWR);  // as SCR 3.1 holds it
  ASSERT_GE(fd, 0);
  {
    auto lock = lock_halt(env(), dir.path());
    ASSERT_TRUE(lock.ok()) << lock.status().message();
    EXPECT_NE(::flock(fd, LOCK_EX | LOCK_NB), 0) << "SCR 3.1 must wait for SCR++'s lock";
  }
  EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  ::flock(fd, LOCK_UN);
  ASSERT_TRUE(update_halt(env(), dir.path(), [](kv::Tree& t) {
                t.set_int("CHECKPOINTS", 4);
                return Status::Ok();
              }).ok());
  std::string bytes(4096, '\0');
  ssize_t n = ::pread(fd, bytes.data(), bytes.size(), 0);
  ::close(fd);
  ASSERT_GT(n, 0);
  bytes.resize(static_cast<size_t>(n));
  auto seen = kv::veloc::decode(bytes);
  ASSERT_TRUE(seen.ok()) << "the file SCR 3.1 holds open has SCR++'s change";
  EXPECT_EQ(seen->int_or("CheckpointsLeft", 0), 4);
  // A lock taken where there was no file leaves none behind.
  testing::TempDir empty;
  { ASSERT_TRUE(lock_halt(env(), empty.path()).ok()); }
  EXPECT_FALSE(std::filesystem::exists(halt_path(empty.path())));
}

// A dataset of two ranks in the prefix, with its SCR++ summary tree.
struct Dataset {
  testing::TempDir dir;
  kv::Tree summary;
  explicit Dataset(int id = 4) {
    kv::Tree& d = summary.child("DSET");
    d.set_int("ID", id);
    d.set("NAME", "ckpt.4");
    d.set_int("FLAGS", 1);
    d.set_int("CKPT", 4);
    d.set_int("CREATED", 42);
    summary.set_int("RANKS", 2);
    for (int r = 0; r < 2; ++r) {
      std::string name = "ckpt.4/rank_" + std::to_string(r) + ".ckpt";
      std::string text(100 + r, 'x');
      EXPECT_TRUE(io::make_dirs(env(), io::path::join(dir.path(), "ckpt.4")).ok());
      EXPECT_TRUE(io::write_file_atomic(env(), io::path::join(dir.path(), name), text).ok());
      kv::Tree& e = summary.child("RANK", std::to_string(r));
      set_summary_files(e, {kv::FileRecord{name, text.size(), 7u, false, std::nullopt}});
    }
    EXPECT_TRUE(io::make_dirs(env(), prefix_dataset_dir(dir.path(), id)).ok());
  }
  std::string file(const std::string& name) const { return io::path::join(prefix_dataset_dir(dir.path(), 4), name); }
  kv::Tree read(const std::string& name) const { return io::read_any_tree(env(), file(name)).value(); }
  Result<kv::Tree> read_back() const {
    return scr31::read_dataset_files(env(), dir.path(), 4, io::read_any_tree(env(), file("summary.scr")).value());
  }
};

TEST(Scr31Dataset, WrittenAsScrWritesItAndReadBack) {
  Dataset d;
  ASSERT_TRUE(scr31::write_dataset_files(env(), d.dir.path(), d.summary).ok());
  kv::Tree summary = d.read("summary.scr");
  EXPECT_EQ(summary.int_or("VERSION", 0), 6);
  EXPECT_EQ(summary.at({"DSET"})->int_or("CKPT", 0), 4) << "SCR 3.1 fails a dataset without it";
  EXPECT_EQ(summary.at({"DSET"})->int_or("FILES", 0), 2);
  EXPECT_EQ(summary.at({"DSET"})->int_or("SIZE", 0), 201);
  kv::Tree root = d.read("rank2file");
  EXPECT_EQ(root.int_or("LEVEL", -1), 1);
  EXPECT_EQ(root.at({"RANK", "0"})->value_or("FILE", ""), ".0.0");
  EXPECT_EQ(d.read("rank2file.0.0").int_or("RANKS", 0), 2) << "SCR 3.1 reads only maps of its own size";
  auto back = d.read_back();
  ASSERT_TRUE(back.ok()) << back.status().message();
  auto files = summary_files(*back->at({"RANK", "1"})).value();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "ckpt.4/rank_1.ckpt");
  EXPECT_EQ(files[0].size, 101u);
  EXPECT_FALSE(files[0].crc) << "SCR 3.1 records no checksum";
  EXPECT_EQ(back->at({"DSET"})->int_or("BYPASS", 0), 1) << "read where it lies";
}

// Replace rank 1's files in the written map with `names`.
void relist(const Dataset& d, std::initializer_list<const char*> names) {
  kv::Tree part = d.read("rank2file.0.0");
  kv::Tree& files = part.at({"RANK", "1"})->reset("FILE");
  for (const char* n : names) files.child(n);
  ASSERT_TRUE(io::write_veloc_tree(env(), d.file("rank2file.0.0"), part).ok());
}

TEST(Scr31Dataset, NamesSCRppDoesNotReadAreRefusedWithoutBlamingTheData) {
  for (const char* bad : {"../outside", "/etc/passwd", ".scr/index.scr", "."}) {
    Dataset d;
    ASSERT_TRUE(scr31::write_dataset_files(env(), d.dir.path(), d.summary).ok());
    relist(d, {bad});
    auto got = d.read_back();
    EXPECT_EQ(got.status().code(), Errc::invalid_argument) << bad;
  }
}

TEST(Scr31Dataset, DamagedMapsAreRefused) {
  Dataset d;
  ASSERT_TRUE(scr31::write_dataset_files(env(), d.dir.path(), d.summary).ok());
  relist(d, {"ckpt.4/rank_1.ckpt", "ckpt.4/rank_0.ckpt"});
  EXPECT_EQ(d.read_back().status().code(), Errc::corrupt) << "more files than SCR recorded";
  // A part pointing back at itself.
  ASSERT_TRUE(scr31::write_dataset_files(env(), d.dir.path(), d.summary).ok());
  kv::Tree loop = d.read("rank2file");
  loop.set_int("LEVEL", 2);
  loop.child("RANK", "0").set("FILE", ".1.0");
  ASSERT_TRUE(io::write_veloc_tree(env(), d.file("rank2file.1.0"), loop).ok());
  ASSERT_TRUE(io::write_veloc_tree(env(), d.file("rank2file"), loop).ok());
  EXPECT_EQ(d.read_back().status().code(), Errc::corrupt);
  // A few bytes claiming two billion ranks.
  kv::Tree huge = d.read("rank2file");
  huge.set_int("RANKS", 2000000000);
  ASSERT_TRUE(io::write_veloc_tree(env(), d.file("rank2file"), huge).ok());
  EXPECT_EQ(d.read_back().status().code(), Errc::corrupt);
  // A part name that is not .<level>.<rank>.
  kv::Tree escape = d.read("rank2file");
  escape.set_int("RANKS", 2);
  escape.set_int("LEVEL", 1);
  escape.reset("RANK").child("0").set("FILE", "/../../x");
  ASSERT_TRUE(io::write_veloc_tree(env(), d.file("rank2file"), escape).ok());
  EXPECT_EQ(d.read_back().status().code(), Errc::corrupt);
}

TEST(Scr31Dataset, AnEarlierSCRppSummaryIsAdopted) {
  Dataset d;
  ASSERT_TRUE(io::write_tree(env(), d.file("summary.scr"), d.summary).ok());  // SCR++'s own codec
  ASSERT_TRUE(scr31::adopt_earlier_summary(env(), d.dir.path(), 4).ok());
  EXPECT_TRUE(std::filesystem::exists(d.file("summary.scrpp")));
  EXPECT_EQ(d.read("summary.scr").int_or("VERSION", 0), 6);
  EXPECT_TRUE(std::filesystem::exists(d.file("rank2file.0.0")));
  auto s = Summary::read(env(), d.dir.path(), 4);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(summary_files(s->rank(0))->front().crc, 7u) << "SCR++'s own summary, checksums and all";
  EXPECT_TRUE(scr31::adopt_earlier_summary(env(), d.dir.path(), 4).ok()) << "nothing left to do";
}

// SCR++'s own summary truncated (zero bytes, or cut short) while SCR 3.1's
// beside it is intact: the dataset is read from SCR 3.1's, as SCR 3.1
// itself would read it, without CRC32Cs, instead of being taken for damaged.
TEST(Scr31Dataset, ADamagedOwnSummaryFallsBackToScrs) {
  Dataset d;
  Summary ours(d.summary.at({"DSET"}) ? *d.summary.at({"DSET"}) : kv::Tree(), 2);
  for (int r = 0; r < 2; ++r) ours.set_rank(r, *d.summary.at({"RANK", std::to_string(r)}));
  ASSERT_TRUE(ours.write(env(), d.dir.path()).ok());
  for (uintmax_t size : {uintmax_t{0}, uintmax_t{30}}) {
    SCOPED_TRACE("summary.scrpp cut to " + std::to_string(size) + " bytes");
    ASSERT_TRUE(ours.write(env(), d.dir.path()).ok());
    std::filesystem::resize_file(d.file("summary.scrpp"), size);
    auto got = Summary::read(env(), d.dir.path(), 4);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(got->desc().value_or("NAME", ""), d.summary.at({"DSET"})->value_or("NAME", ""));
    EXPECT_EQ(got->writers(), 2);
    auto files = summary_files(got->rank(0));
    ASSERT_TRUE(files.ok());
    ASSERT_FALSE(files->empty());
    EXPECT_FALSE(files->front().crc) << "SCR 3.1's summary records no CRC32C";
  }
  // Both damaged: nothing describes the dataset.
  std::filesystem::resize_file(d.file("summary.scr"), 10);
  EXPECT_EQ(Summary::read(env(), d.dir.path(), 4).status().code(), Errc::corrupt);
}

TEST(Scr31Dataset, ScrsSummaryWinsOverAStaleOneForAReusedId) {
  Dataset d;
  Summary ours(d.summary.at({"DSET"}) ? *d.summary.at({"DSET"}) : kv::Tree(), 2);
  for (int r = 0; r < 2; ++r) ours.set_rank(r, *d.summary.at({"RANK", std::to_string(r)}));
  ASSERT_TRUE(ours.write(env(), d.dir.path()).ok());
  EXPECT_EQ(summary_files(Summary::read(env(), d.dir.path(), 4)->rank(0))->front().crc, 7u);
  // SCR 3.1 reuses id 4 for a dataset of its own, over SCR++'s files.
  kv::Tree other = d.summary;
  other.at({"DSET"})->set("NAME", "ckpt.4b");
  other.at({"DSET"})->set_int("CREATED", 43);
  ASSERT_TRUE(scr31::write_dataset_files(env(), d.dir.path(), other).ok());
  auto got = Summary::read(env(), d.dir.path(), 4);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->desc().value_or("NAME", ""), "ckpt.4b");
  EXPECT_FALSE(summary_files(got->rank(0))->front().crc);
}

}  // namespace
}  // namespace scr::rt
