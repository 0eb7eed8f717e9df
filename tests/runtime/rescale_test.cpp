// Restart at a different size, the MPI-free parts (runtime/rescale.hpp):
// the summary becomes one list of files, and routing a file fetches and
// checks it once for the node, never hands out a damaged one, and refuses a
// name outside the dataset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "../io/temp_dir.hpp"
#include "common/crc32c.hpp"
#include "runtime/prefix_index.hpp"
#include "runtime/rescale.hpp"

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

TEST(RescaleSummary, ListsEachFileOnceUnderItsWriter) {
  kv::Tree summary;
  summary.set_int("RANKS", 3);
  add_file(summary, 0, "ckpt/rank_0.dat", "zero", true);
  add_file(summary, 1, "ckpt/shared.dat", "shared!", false);  // N-to-1: rank 2 owns it
  add_file(summary, 2, "ckpt/shared.dat", "shared!", true);
  add_file(summary, 2, "ckpt/rank_2.dat", "two", true);
  rt::Rescaled r;
  ASSERT_TRUE(rt::parse_summary("/p", summary, &r).ok());
  EXPECT_EQ(r.writers, 3);
  ASSERT_EQ(r.files.size(), 3u);
  EXPECT_EQ(r.files[0].name, "ckpt/rank_0.dat");
  EXPECT_EQ(r.files[0].rank, 0);
  EXPECT_EQ(r.files[1].name, "ckpt/shared.dat");
  EXPECT_EQ(r.files[1].rank, 2);
  EXPECT_TRUE(r.crcs[1].has_value());
  EXPECT_EQ(r.files[2].size, 3u);
  EXPECT_EQ(r.by_name.at("ckpt/rank_2.dat"), 2u);
}

TEST(RescaleSummary, RefusesNamesOutsideThePrefixAndNoCount) {
  rt::Rescaled r;
  kv::Tree none;
  EXPECT_EQ(rt::parse_summary("/p", none, &r).code(), Errc::corrupt);
  for (std::string bad : {"../outside.dat", ".scr/index.scr"}) {
    kv::Tree summary;
    summary.set_int("RANKS", 1);
    add_file(summary, 0, bad, "x", true);
    rt::Rescaled one;
    EXPECT_EQ(rt::parse_summary("/p", summary, &one).code(), Errc::corrupt) << bad;
  }
}

// A context with just what routing reads: no MPI.
struct Routing : ::testing::Test {
  scr::testing::TempDir dir;
  rt::Job job;
  rt::Context ctx{job};
  std::string prefix = dir.path() + "/prefix";
  std::string node_dir = dir.path() + "/cache/scr.rescale.5";

  void prepare(bool in_place) {
    job.env = &io::Env::posix();
    job.settings.prefix = prefix;
    kv::Tree summary;
    summary.set_int("RANKS", 2);
    for (int r = 0; r < 2; ++r) {
      std::string text = "data of old rank " + std::to_string(r);
      write(prefix + "/ckpt/rank_" + std::to_string(r) + ".dat", text);
      add_file(summary, r, "ckpt/rank_" + std::to_string(r) + ".dat", text, true);
    }
    auto r = std::make_unique<rt::Rescaled>();
    ASSERT_TRUE(rt::parse_summary(prefix, summary, r.get()).ok());
    r->in_place = in_place;
    r->node_dir = node_dir;
    std::filesystem::create_directories(node_dir + "/.scr");
    ctx.rescaled = std::move(r);
  }
};

TEST_F(Routing, CopiesEachFileOnceForTheNode) {
  prepare(false);
  auto first = rt::route_rescaled(ctx, "ckpt/rank_1.dat");
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_EQ(*first, node_dir + "/ckpt/rank_1.dat");
  EXPECT_EQ(read(*first), "data of old rank 1");
  // The prefix copy changes afterwards: a second route (another process of
  // the node) gets the checked copy, not a second read of the prefix.
  write(prefix + "/ckpt/rank_1.dat", "data of old rank X");
  auto second = rt::route_rescaled(ctx, "ckpt/rank_1.dat");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(read(*second), "data of old rank 1");
  EXPECT_FALSE(ctx.rescaled->failed);
}

TEST_F(Routing, NeverHandsOutADamagedFile) {
  prepare(false);
  write(prefix + "/ckpt/rank_0.dat", "data of old rank X");  // same size, other bytes
  auto got = rt::route_rescaled(ctx, "ckpt/rank_0.dat");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::corrupt);
  EXPECT_TRUE(ctx.rescaled->failed);
  EXPECT_FALSE(std::filesystem::exists(node_dir + "/ckpt/rank_0.dat"));
}

TEST_F(Routing, InPlaceChecksThePrefixFile) {
  prepare(true);
  auto good = rt::route_rescaled(ctx, "ckpt/rank_1.dat");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, prefix + "/ckpt/rank_1.dat");
  write(prefix + "/ckpt/rank_0.dat", "data of old rank 0 and more");  // other size
  EXPECT_EQ(rt::route_rescaled(ctx, "ckpt/rank_0.dat").status().code(), Errc::corrupt);
  EXPECT_TRUE(ctx.rescaled->failed);
}

TEST_F(Routing, RefusesANameNotInTheDataset) {
  prepare(false);
  auto got = rt::route_rescaled(ctx, "ckpt/rank_2.dat");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::not_found);
  EXPECT_FALSE(ctx.rescaled->failed);
}

}  // namespace
