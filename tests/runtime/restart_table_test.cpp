// The restart file table: every file of a checkpoint found by its place in
// the listing, by its name and by its last component, reading one piece at
// a time; a damaged table is refused with Errc::corrupt, never misread.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../io/temp_dir.hpp"
#include "io/env.hpp"
#include "runtime/prefix/restart_table.hpp"

namespace {

using namespace scr;

// `n` files over `writers` ranks in listing order; every third has a CRC.
std::vector<rt::TableFile> listing(int n, int writers) {
  std::vector<rt::TableFile> out;
  for (int i = 0; i < n; ++i) {
    rt::TableFile f;
    int rank = static_cast<int>(static_cast<int64_t>(i) * writers / n);
    f.name = "step.7/rank_" + std::to_string(rank) + "/part_" + std::to_string(i) + ".dat";
    f.rank = rank;
    f.size = 1000u + static_cast<uint64_t>(i);
    if (i % 3 == 0) f.crc = 0xc0ffee00u + static_cast<uint32_t>(i);
    out.push_back(f);
  }
  return out;
}

TEST(RestartTable, ListsFindsAndMatchesLastComponentsAcrossPieces) {
  scr::testing::TempDir dir;
  std::string path = dir.path() + "/table";
  auto files = listing(1000, 37);
  files.push_back({"shared/out.h5", 36, 5, std::nullopt, 0});  // a second name with one last component
  files.push_back({"other/out.h5", 36, 6, std::nullopt, 0});
  // Pieces of 64: 16 listing pieces and 16 buckets of each kind.
  ASSERT_TRUE(rt::write_restart_table(io::Env::posix(), path, 37, files, true, 64).ok());
  auto t = rt::RestartTable::open(io::Env::posix(), path);
  ASSERT_TRUE(t.ok()) << t.status().to_string();
  EXPECT_EQ(t->writers(), 37);
  ASSERT_EQ(t->size(), files.size());
  for (uint64_t i = 0; i < files.size(); ++i) {
    auto f = t->at(i);
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    EXPECT_EQ(f->name, files[i].name);
    EXPECT_EQ(f->rank, files[i].rank);
    EXPECT_EQ(f->size, files[i].size);
    EXPECT_EQ(f->crc, files[i].crc);
    EXPECT_EQ(f->index, i);
  }
  EXPECT_EQ(t->at(files.size()).status().code(), Errc::invalid_argument);
  // Found by name in any order: the index says where it is listed.
  for (uint64_t i = files.size(); i-- > 0;) {
    auto f = t->find(files[i].name);
    ASSERT_TRUE(f.ok() && f->has_value()) << files[i].name;
    EXPECT_EQ((*f)->index, i);
    EXPECT_EQ((*f)->crc, files[i].crc);
  }
  auto none = t->find("step.7/rank_0/absent.dat");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto one = t->with_basename("part_17.dat");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, std::vector<std::string>{files[17].name});
  auto two = t->with_basename("out.h5");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
  EXPECT_TRUE(t->with_basename("nothing.dat")->empty());
}

TEST(RestartTable, AListingAloneHasNoLookupsAndAnEmptyOneListsNothing) {
  scr::testing::TempDir dir;
  ASSERT_TRUE(rt::write_restart_table(io::Env::posix(), dir.path() + "/a", 4, listing(10, 4), false).ok());
  auto t = rt::RestartTable::open(io::Env::posix(), dir.path() + "/a");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->size(), 10u);
  EXPECT_EQ(t->find("x").status().code(), Errc::bad_state);
  ASSERT_TRUE(rt::write_restart_table(io::Env::posix(), dir.path() + "/b", 2, {}, true).ok());
  auto empty = rt::RestartTable::open(io::Env::posix(), dir.path() + "/b");
  ASSERT_TRUE(empty.ok()) << empty.status().to_string();
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_FALSE(empty->find("x")->has_value());
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(RestartTable, EveryDamagedOrTruncatedByteIsRefusedNotMisread) {
  scr::testing::TempDir dir;
  std::string path = dir.path() + "/table";
  auto files = listing(40, 5);
  ASSERT_TRUE(rt::write_restart_table(io::Env::posix(), path, 5, files, true, 8).ok());
  const std::string good = slurp(path);
  auto read_all = [&](const std::string& bytes) -> Status {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    SCR_ASSIGN_OR_RETURN(auto t, rt::RestartTable::open(io::Env::posix(), path));
    for (uint64_t i = 0; i < t.size(); ++i) {
      SCR_ASSIGN_OR_RETURN(auto f, t.at(i));
      if (f.name != files[i].name || f.size != files[i].size || f.rank != files[i].rank)
        return Error(Errc::unrecoverable, "misread file " + std::to_string(i));
      SCR_ASSIGN_OR_RETURN(auto found, t.find(files[i].name));
      if (!found || found->index != i) return Error(Errc::unrecoverable, "misfound file " + std::to_string(i));
    }
    return Status::Ok();
  };
  ASSERT_TRUE(read_all(good).ok());
  for (size_t cut = 0; cut < good.size(); ++cut)
    EXPECT_EQ(read_all(good.substr(0, cut)).code(), Errc::corrupt) << "truncated at " << cut;
  for (size_t at = 0; at < good.size(); ++at) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    Status st = read_all(bad);
    EXPECT_TRUE(st.ok() || st.code() == Errc::corrupt) << "byte " << at << ": " << st.to_string();
    EXPECT_NE(st.code(), Errc::unrecoverable) << "byte " << at;
  }
}

}  // namespace
