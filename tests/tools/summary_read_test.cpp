// The tools' summary reader (tools/common/summary.hpp): what a summary or
// map in the prefix names is damaged data (exit 3), never a usage error.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/files.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tests/io/temp_dir.hpp"
#include "tools/common/summary.hpp"

namespace {

using namespace scr;

// SCR 3.1's summary.scr and rank2file map of dataset 1 (2 ranks), rank 1's
// file named `rank1_file`.
void write_scr31_dataset(const std::string& prefix, const std::string& rank1_file) {
  io::Env& env = io::Env::posix();
  std::string dir = rt::prefix_dataset_dir(prefix, 1);
  std::filesystem::create_directories(dir);
  kv::Tree summary;
  summary.set_int("VERSION", 6);
  summary.set_int("COMPLETE", 1);
  kv::Tree& d = summary.child("DSET");
  for (auto [k, v] : {std::pair{"ID", 1}, {"CKPT", 1}, {"COMPLETE", 1}, {"FILES", 2}, {"FLAG_CKPT", 1},
                      {"FLAG_OUTPUT", 0}, {"SIZE", 0}})
    d.set_int(k, v);
  d.set("NAME", "step.10");
  ASSERT_TRUE(io::write_veloc_tree(env, dir + "/summary.scr", summary).ok());
  kv::Tree root;
  root.set_int("LEVEL", 1);
  root.set_int("RANKS", 2);
  root.child("RANK", "0").set("FILE", ".0.0");
  root.child("RANK", "0").set_int("OFFSET", 0);
  ASSERT_TRUE(io::write_veloc_tree(env, dir + "/rank2file", root).ok());
  kv::Tree part;
  part.set_int("LEVEL", 0);
  part.set_int("RANKS", 2);
  part.child("RANK", "0").child("FILE", "step.10/rank_0.dat");
  part.child("RANK", "1").child("FILE", rank1_file);
  ASSERT_TRUE(io::write_veloc_tree(env, dir + "/rank2file.0.0", part).ok());
  std::filesystem::create_directories(prefix + "/step.10");
  for (const char* f : {"/step.10/rank_0.dat", "/step.10/rank_1.dat"}) ASSERT_TRUE(io::write_file_atomic(env, prefix + f, "").ok());
}

TEST(SummaryRead, AMapNamingAFileOutsideThePrefixIsDamage) {
  scr::testing::TempDir dir;
  write_scr31_dataset(dir.path(), "step.10/rank_1.dat");
  ASSERT_TRUE(tools::read_summary(io::Env::posix(), dir.path(), 1).ok());
  write_scr31_dataset(dir.path(), "../outside/x.dat");
  auto s = tools::read_summary(io::Env::posix(), dir.path(), 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Errc::corrupt) << s.status().to_string();
}

}  // namespace
