// The flush summary's codec (runtime/prefix/summary.hpp), and restart at a
// different size, the MPI-free parts (runtime/transfer/rescale.hpp): the summary
// becomes one list of files, and routing a file fetches and
// checks it once for the node, never hands out a damaged one, and refuses a
// name outside the dataset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../io/temp_dir.hpp"
#include "common/crc32c.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/summary.hpp"
#include "runtime/transfer/rescale.hpp"

namespace {

using namespace scr;

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void add_file(kv::Tree& summary, int rank, const std::string& name, const std::string& text, bool crc) {
  kv::Tree& entry = summary.child("RANK").child(std::to_string(rank));
  auto files = rt::summary_files(entry).value();
  kv::FileRecord& f = files.emplace_back();
  f.name = name;
  f.size = text.size();
  if (crc) f.crc = crc32c(text.data(), text.size());
  rt::set_summary_files(entry, files);
}

// A summary tree of `writers` processes with a descriptor, as a flush writes.
kv::Tree summary_tree(int writers) {
  kv::Tree summary;
  summary.child("DSET").set_int("ID", 1);
  summary.child("DSET").set("NAME", "ckpt");
  summary.set_int("RANKS", writers);
  return summary;
}

rt::Summary parsed(kv::Tree tree) {
  auto s = rt::Summary::parse(std::move(tree), "test summary");
  EXPECT_TRUE(s.ok()) << s.status().to_string();
  return s ? std::move(s).value() : rt::Summary();
}

TEST(RescaleSummary, ListsEachFileOnceUnderItsWriter) {
  kv::Tree summary = summary_tree(3);
  add_file(summary, 0, "ckpt/rank_0.dat", "zero", true);
  add_file(summary, 1, "ckpt/shared.dat", "shared!", false);  // N-to-1: rank 2 owns it
  add_file(summary, 2, "ckpt/shared.dat", "shared!", true);
  add_file(summary, 2, "ckpt/rank_2.dat", "two", true);
  auto files = rt::summary_listing("/p", parsed(summary));
  ASSERT_TRUE(files.ok()) << files.status().to_string();
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[0].name, "ckpt/rank_0.dat");
  EXPECT_EQ((*files)[0].rank, 0);
  EXPECT_EQ((*files)[1].name, "ckpt/shared.dat");
  EXPECT_EQ((*files)[1].rank, 2);
  EXPECT_TRUE((*files)[1].crc.has_value());
  EXPECT_EQ((*files)[2].size, 3u);
  EXPECT_EQ((*files)[2].name, "ckpt/rank_2.dat");
  EXPECT_EQ((*files)[2].index, 2u);
}

TEST(RescaleSummary, RefusesNamesOutsideThePrefix) {
  for (std::string bad : {"../outside.dat", ".scr/index.scr"}) {
    kv::Tree summary = summary_tree(1);
    add_file(summary, 0, bad, "x", true);
    EXPECT_EQ(rt::summary_listing("/p", parsed(summary)).status().code(), Errc::corrupt) << bad;
  }
}

// The codec checks the shape before anyone walks the tree: a descriptor, a
// process count, an entry for every writer, well-formed lists.
TEST(SummaryCodec, RefusesEveryMalformedShape) {
  std::vector<std::pair<std::string, kv::Tree>> cases;
  cases.emplace_back("empty", kv::Tree());
  kv::Tree no_desc = summary_tree(1);
  no_desc.erase("DSET");
  add_file(no_desc, 0, "a", "x", true);
  cases.emplace_back("no descriptor", no_desc);
  kv::Tree no_count = summary_tree(1);
  no_count.erase("RANKS");
  cases.emplace_back("no RANKS", no_count);
  kv::Tree missing_rank = summary_tree(2);
  add_file(missing_rank, 0, "a", "x", true);
  cases.emplace_back("a writer without entry", missing_rank);
  kv::Tree bad_count = summary_tree(1);
  add_file(bad_count, 0, "a", "x", true);
  bad_count.at({"RANK", "0"})->set_int("FILES", 2);
  cases.emplace_back("FILES disagrees with the list", bad_count);
  kv::Tree bad_red = summary_tree(1);
  add_file(bad_red, 0, "a", "x", true);
  rt::add_summary_redundancy(*bad_red.at({"RANK", "0"}), "../../x", 3);
  cases.emplace_back("a redundancy name with a path", bad_red);
  kv::Tree bad_red_crc = summary_tree(1);
  add_file(bad_red_crc, 0, "a", "x", true);
  rt::add_summary_redundancy(*bad_red_crc.at({"RANK", "0"}), "red", 3);
  bad_red_crc.at({"RANK", "0", "REDFILE", "red"})->set("CRC", "8589934591");
  cases.emplace_back("a redundancy CRC beyond 32 bits", bad_red_crc);
  for (auto& [what, tree] : cases)
    EXPECT_EQ(rt::Summary::parse(std::move(tree), "s").status().code(), Errc::corrupt) << what;
}

TEST(SummaryCodec, WritesAndReadsBack) {
  scr::testing::TempDir dir;
  kv::Tree desc;
  desc.set_int("ID", 7);
  desc.set("NAME", "ckpt.7");
  rt::Summary s(desc, 2);
  for (int r = 0; r < 2; ++r) {
    kv::Tree entry;
    kv::FileRecord f;
    f.name = "ckpt.7/rank_" + std::to_string(r);
    f.size = 10u + static_cast<uint64_t>(r);
    f.crc = 42u + static_cast<uint32_t>(r);
    rt::set_summary_files(entry, {f});
    // Rank 0's with its CRC32C, rank 1's without (an older summary's).
    rt::add_summary_redundancy(entry, "red_" + std::to_string(r), 5,
                               r == 0 ? std::optional<uint32_t>(0xfeedbeef) : std::nullopt);
    s.set_rank(r, std::move(entry));
  }
  std::filesystem::create_directories(dir.path() + "/.scr/scr.dataset.7");
  ASSERT_TRUE(s.write(io::Env::posix(), dir.path()).ok());
  auto back = rt::Summary::read(io::Env::posix(), dir.path(), 7);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->id(), 7);
  EXPECT_EQ(back->writers(), 2);
  auto files = rt::summary_files(back->rank(1));
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ((*files)[0].size, 11u);
  EXPECT_EQ((*files)[0].crc, 43u);
  auto red = rt::summary_redundancy(back->rank(0));
  ASSERT_TRUE(red.ok());
  ASSERT_EQ(red->size(), 1u);
  EXPECT_EQ((*red)[0].name, "red_0");
  EXPECT_EQ((*red)[0].crc, 0xfeedbeefu);
  auto older = rt::summary_redundancy(back->rank(1));
  ASSERT_TRUE(older.ok());
  ASSERT_EQ(older->size(), 1u);
  EXPECT_FALSE((*older)[0].crc.has_value());
  EXPECT_EQ(rt::Summary::read(io::Env::posix(), dir.path(), 8).status().code(), Errc::not_found);
  // A file that does not parse is a damaged summary: SCR++'s own, when the
  // one in SCR 3.1's layout beside it is damaged too, or that one without it.
  write(rt::own_summary_path(dir.path(), 7), "\x01garbage");
  write(rt::summary_path(dir.path(), 7), "\x01garbage");
  EXPECT_EQ(rt::Summary::read(io::Env::posix(), dir.path(), 7).status().code(), Errc::corrupt);
  std::filesystem::remove(rt::own_summary_path(dir.path(), 7));
  EXPECT_EQ(rt::Summary::read(io::Env::posix(), dir.path(), 7).status().code(), Errc::corrupt);
}

// A job with just what routing reads: no MPI.
struct Routing : ::testing::Test {
  scr::testing::TempDir dir;
  rt::Job job;
  std::unique_ptr<rt::Rescaled> rescaled;
  std::string prefix = dir.path() + "/prefix";
  std::string node_dir = dir.path() + "/cache/scr.rescale.5";

  void prepare(bool in_place) {
    job.env = &io::Env::posix();
    job.settings.prefix = prefix;
    kv::Tree summary = summary_tree(2);
    for (int r = 0; r < 2; ++r) {
      std::string text = "data of old rank " + std::to_string(r);
      write(prefix + "/ckpt/rank_" + std::to_string(r) + ".dat", text);
      add_file(summary, r, "ckpt/rank_" + std::to_string(r) + ".dat", text, true);
    }
    auto r = std::make_unique<rt::Rescaled>();
    auto files = rt::summary_listing(prefix, parsed(summary));
    ASSERT_TRUE(files.ok()) << files.status().to_string();
    std::string table = dir.path() + "/table";
    ASSERT_TRUE(rt::write_restart_table(io::Env::posix(), table, 2, *files, true).ok());
    auto opened = rt::RestartTable::open(io::Env::posix(), table);
    ASSERT_TRUE(opened.ok()) << opened.status().to_string();
    r->table = std::move(opened).value();
    r->writers = 2;
    r->in_place = in_place;
    r->node_dir = node_dir;
    std::filesystem::create_directories(node_dir + "/.scr");
    rescaled = std::move(r);
  }
};

TEST_F(Routing, CopiesEachFileOnceForTheNode) {
  prepare(false);
  auto first = rt::route_rescaled(job, *rescaled, "ckpt/rank_1.dat");
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_EQ(*first, node_dir + "/ckpt/rank_1.dat");
  EXPECT_EQ(read(*first), "data of old rank 1");
  // The prefix copy changes afterwards: a second route (another process of
  // the node) gets the checked copy, not a second read of the prefix.
  write(prefix + "/ckpt/rank_1.dat", "data of old rank X");
  auto second = rt::route_rescaled(job, *rescaled, "ckpt/rank_1.dat");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(read(*second), "data of old rank 1");
  EXPECT_FALSE(rescaled->failed);
}

TEST_F(Routing, NeverHandsOutADamagedFile) {
  prepare(false);
  write(prefix + "/ckpt/rank_0.dat", "data of old rank X");  // same size, other bytes
  auto got = rt::route_rescaled(job, *rescaled, "ckpt/rank_0.dat");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::corrupt);
  EXPECT_TRUE(rescaled->failed);
  EXPECT_FALSE(std::filesystem::exists(node_dir + "/ckpt/rank_0.dat"));
}

TEST_F(Routing, InPlaceChecksThePrefixFile) {
  prepare(true);
  auto good = rt::route_rescaled(job, *rescaled, "ckpt/rank_1.dat");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, prefix + "/ckpt/rank_1.dat");
  write(prefix + "/ckpt/rank_0.dat", "data of old rank 0 and more");  // other size
  EXPECT_EQ(rt::route_rescaled(job, *rescaled, "ckpt/rank_0.dat").status().code(), Errc::corrupt);
  EXPECT_TRUE(rescaled->failed);
}

TEST_F(Routing, RefusesANameNotInTheDataset) {
  prepare(false);
  auto got = rt::route_rescaled(job, *rescaled, "ckpt/rank_2.dat");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::not_found);
  EXPECT_FALSE(rescaled->failed);
}

}  // namespace
