// The offline rebuild when files are damaged rather than gone, when a
// directory holds several sets (a whole job's files, as in a prefix), and
// when the caller's verification rejects what was rebuilt. As in
// offline_test.cpp, every rank applies with the MPI encoder and rank 0 alone
// damages and rebuilds.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "dir_image.hpp"
#include "harness.hpp"
#include "io/env.hpp"
#include "kvtree/codec.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "redset/offline.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Params;
using redset::Scheme;
using redset::test::DirImage;
namespace offline = redset::offline;
namespace fs = std::filesystem;

io::Env& env() { return io::Env::posix(); }

using redset::test::flip_byte;

void shorten(const std::string& path) { fs::resize_file(path, fs::file_size(path) - 1); }

// Every rank of the world applies `params` (sets formed from distinct
// "nodes") to two files of its own in `dir`. Rank 0 gets, by world rank, the
// redundancy file name and the first data file, and the set id.
struct Layout {
  std::map<int, std::string> redundancy, data;
  std::map<int, int> set_of;
};

Layout apply_world(const Params& params, const std::string& dir) {
  auto world = mpi::borrow(MPI_COMM_WORLD);
  int w = world.rank();
  auto set = redset::Set::create(world, "node" + std::to_string(w), params);
  EXPECT_TRUE(set.ok());
  auto files = redset::test::make_sized_files(dir, "rank" + std::to_string(w) + "/",
                                              {5000u + 37u * static_cast<uint64_t>(w), 100},
                                              static_cast<uint64_t>(w));
  EXPECT_TRUE(redset::apply(env(), *set, dir, files).ok());
  kv::Tree mine;
  mine.set("RED", redset::redundancy_files(*set).front());
  mine.set("DATA", files.front());
  mine.set_int("SET", set->group());
  Layout out;
  auto all = mpi::allgather_strings(world, kv::encode(mine));
  for (size_t r = 0; r < all.size(); ++r) {
    kv::Tree t = kv::decode(all[r]).value();
    out.redundancy[static_cast<int>(r)] = t.value_or("RED", "");
    out.data[static_cast<int>(r)] = t.value_or("DATA", "");
    out.set_of[static_cast<int>(r)] = static_cast<int>(t.int_or("SET", 0));
  }
  return out;
}

std::map<int, offline::Place> places(const std::string& dir, const Layout& l) {
  std::map<int, offline::Place> out;
  for (const auto& [w, name] : l.redundancy) out[w] = {dir, dir + "/" + name};
  return out;
}

std::string red_path(const std::string& dir, const Layout& l, int w) {
  return dir + "/" + l.redundancy.at(w);
}
std::string data_path(const std::string& dir, const Layout& l, int w) {
  return dir + "/" + l.data.at(w);
}

// What happens to world rank 1; `suspect` when only the caller can tell.
struct Damage {
  std::string name;
  std::function<void(const std::string& dir, const Layout&)> apply;
  bool suspect = false;
};

std::vector<Damage> damages() {
  return {
      {"data file cut short", [](auto& dir, auto& l) { shorten(data_path(dir, l, 1)); }},
      {"data file missing", [](auto& dir, auto& l) { fs::remove(data_path(dir, l, 1)); }},
      {"header byte flipped", [](auto& dir, auto& l) { flip_byte(red_path(dir, l, 1), 40); }},
      {"redundancy data cut short", [](auto& dir, auto& l) { shorten(red_path(dir, l, 1)); }},
      {"another member's redundancy file",
       [](auto& dir, auto& l) {
         fs::copy_file(red_path(dir, l, 2), red_path(dir, l, 1),
                       fs::copy_options::overwrite_existing);
       }},
      {"data byte flipped, found by the caller",
       [](auto& dir, auto& l) { flip_byte(data_path(dir, l, 1), 10); }, true},
  };
}

class OfflineDamageTest : public ::testing::TestWithParam<Params> {
 protected:
  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
};

TEST_P(OfflineDamageTest, DamagedMembersCountAsLostAndAreRebuilt) {
  redset::test::Scratch scratch(world_);
  std::string dir = scratch.node_dir("prefix") + "/dataset";
  Layout l = apply_world(GetParam(), dir);
  if (world_.rank() == 0) {
    DirImage image = redset::test::take_image(dir);
    for (const Damage& d : damages()) {
      redset::test::restore_image(dir, image);
      d.apply(dir, l);
      std::set<int> suspects;
      if (d.suspect) suspects.insert(1);
      offline::Survey s = offline::survey(env(), places(dir, l), suspects);
      auto lost = s.lost();
      ASSERT_EQ(1u, lost.size()) << d.name;
      EXPECT_EQ(1, lost.front().world_rank) << d.name;
      auto rebuilt = offline::rebuild(env(), s, {dir, dir + "/" + redset::kRedundancyDir});
      EXPECT_TRUE(rebuilt.ok()) << d.name << ": " << rebuilt.status().to_string();
      EXPECT_EQ("", redset::test::image_differences(dir, image)) << d.name;
    }
  }
  world_.barrier();
}

INSTANTIATE_TEST_SUITE_P(Schemes, OfflineDamageTest,
                         ::testing::Values(Params{Scheme::xor_code, 4, 1, 1, 4096},
                                           Params{Scheme::rs, 4, 2, 1, 4096},
                                           Params{Scheme::partner, 4, 1, 1, 4096}),
                         [](const auto& info) {
                           return std::string(redset::scheme_file_tag(info.param.scheme));
                         });

// A whole job in one directory: 8 ranks in two XOR sets of 4.
class OfflineJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    l_ = apply_world({Scheme::xor_code, 4, 1, 1, 4096}, dir_);
    if (world_.rank() == 0) image_ = redset::test::take_image(dir_);
  }
  void TearDown() override { world_.barrier(); }
  // World ranks of set `g`, ascending.
  std::vector<int> members(int g) const {
    std::vector<int> out;
    for (const auto& [w, s] : l_.set_of)
      if (s == g) out.push_back(w);
    return out;
  }
  void lose(int w) const {
    fs::remove(data_path(dir_, l_, w));
    fs::remove(red_path(dir_, l_, w));
  }

  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
  redset::test::Scratch scratch_{world_};
  std::string dir_ = scratch_.node_dir("prefix") + "/job";
  Layout l_;
  DirImage image_;
};

TEST_F(OfflineJobTest, OneLossInEverySetIsRebuilt) {
  if (world_.rank() != 0) return;
  ASSERT_EQ(4u, members(0).size());
  ASSERT_EQ(4u, members(1).size());
  lose(members(0)[2]);
  lose(members(1)[0]);
  offline::Survey s = offline::survey(env(), places(dir_, l_));
  EXPECT_EQ(8, s.world_ranks);
  EXPECT_EQ(2u, s.sets.size());
  // The lost ranks' file lists survive in their neighbours' headers.
  auto files = s.files(members(0)[2]);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(2u, files->size());
  auto rebuilt = offline::rebuild(env(), s, {dir_, dir_ + "/" + redset::kRedundancyDir});
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().to_string();
  EXPECT_EQ(2u, rebuilt->size());
  EXPECT_EQ("", redset::test::image_differences(dir_, image_));
}

TEST_F(OfflineJobTest, TwoLossesInOneSetAreRefusedNamingTheSetAndRanks) {
  if (world_.rank() != 0) return;
  auto set1 = members(1);
  lose(set1[1]);
  lose(set1[3]);
  lose(members(0)[0]);  // rebuildable, but nothing may be written anywhere
  DirImage after_loss = redset::test::take_image(dir_);
  offline::Survey s = offline::survey(env(), places(dir_, l_));
  Status verdict = s.verdict();
  EXPECT_EQ(Errc::unrecoverable, verdict.code());
  EXPECT_NE(std::string::npos, verdict.message().find("XOR set 1 lost the files of members"))
      << verdict.message();
  for (int w : {set1[1], set1[3]})
    EXPECT_NE(std::string::npos, verdict.message().find("(rank " + std::to_string(w) + ")"))
        << verdict.message();
  EXPECT_EQ(Errc::unrecoverable, offline::rebuild(env(), s, {dir_, dir_ + "/" + redset::kRedundancyDir}).status().code());
  EXPECT_EQ("", redset::test::image_differences(dir_, after_loss));
}

TEST_F(OfflineJobTest, ASetWithoutAnyHeaderLeavesItsRanksUnknown) {
  if (world_.rank() != 0) return;
  for (int w : members(1)) lose(w);
  offline::Survey s = offline::survey(env(), places(dir_, l_));
  EXPECT_EQ(members(1), s.unknown_ranks);
  EXPECT_NE(std::string::npos, s.verdict().message().find("are in no redundancy set"));
  EXPECT_FALSE(s.files(members(1)[0]).ok());
  for (int w : members(0)) lose(w);
  offline::Survey none = offline::survey(env(), places(dir_, l_));
  EXPECT_EQ("no redundancy file header could be read", none.verdict().message());
}

TEST_F(OfflineJobTest, RejectedVerificationKeepsTheSetsFilesAway) {
  if (world_.rank() != 0) return;
  int lost = members(0)[1];
  lose(lost);
  DirImage after_loss = redset::test::take_image(dir_);
  offline::Survey s = offline::survey(env(), places(dir_, l_));
  std::vector<std::string> seen;
  offline::Options reject{
      4096, {}, [&](int w, const redset::FileEntry& f, const std::string& written) {
        EXPECT_EQ(lost, w);
        seen.push_back(f.name);
        // The bytes are there, under the temporary name.
        EXPECT_EQ(image_.at(f.name).bytes.size(), fs::file_size(written));
        return Error(Errc::corrupt, f.name + " fails its CRC32C check");
      }};
  auto rebuilt = offline::rebuild(env(), s, {dir_, dir_ + "/" + redset::kRedundancyDir}, reject);
  EXPECT_EQ(Errc::corrupt, rebuilt.status().code());
  EXPECT_NE(std::string::npos, rebuilt.status().message().find("fails its CRC32C check"));
  EXPECT_EQ(1u, seen.size());
  EXPECT_EQ("", redset::test::image_differences(dir_, after_loss));

  offline::Options accept{
      4096, {}, [](int, const redset::FileEntry&, const std::string&) { return Status::Ok(); }};
  ASSERT_TRUE(offline::rebuild(env(), s, {dir_, dir_ + "/" + redset::kRedundancyDir}, accept).ok());
  EXPECT_EQ("", redset::test::image_differences(dir_, image_));
}

}  // namespace
