// A redundancy file written over a spare (the redundancy file of an evicted
// dataset, redset::apply's `spare`) in one process (ranks as threads): it
// takes the spare's pages (same inode, the spare's name gone), holds
// exactly the bytes a new file would, whether the spare was larger or
// smaller, and a lost member is rebuilt from it bit-exact.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness.hpp"
#include "io/fault_env.hpp"
#include "mpi/in_process.hpp"
#include "redset/meta.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Params;
using redset::Scheme;
namespace fs = std::filesystem;

constexpr int kRanks = 4;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Where two files' bytes first differ, or "" when they are the same.
std::string first_difference(const std::string& got, const std::string& want) {
  if (got == want) return "";
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  return "sizes " + std::to_string(got.size()) + " and " + std::to_string(want.size()) +
         ", first difference at byte " + std::to_string(i);
}

ino_t inode_of(const std::string& path) {
  struct stat st{};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// Encodes the same files twice: into a new file, then over a spare of
// `spare_bytes` bytes of 0xA5 (none when 0); rank 0 is then lost and rebuilt.
void encode_over_spare(const Params& params, size_t spare_bytes) {
  mpi::InProcess(kRanks).run([&](mpi::Comm& world) {
    io::Env& env = io::Env::posix();
    redset::test::Scratch scratch(world);
    std::string node = "node" + std::to_string(world.rank());
    auto set = redset::Set::create(world, node, params);
    ASSERT_TRUE(set.ok());
    std::string dir = scratch.node_dir(node) + "/ds";
    auto r = static_cast<uint64_t>(world.rank());
    // Uneven members, one without any file: the padding of every layout.
    std::vector<uint64_t> sizes = r == 2 ? std::vector<uint64_t>{} : std::vector<uint64_t>{200000 + 7919 * r, 1, 65536};
    redset::test::Member me(dir, redset::test::make_sized_files(dir, "", sizes, r));
    std::string redfile = redset::redundancy_file(*set, dir);

    ASSERT_TRUE(redset::apply(env, *set, dir, me.files()).ok());
    std::string fresh = read_bytes(redfile);
    ASSERT_FALSE(fresh.empty());
    ASSERT_TRUE(redset::unapply(env, *set, dir).ok());

    std::string spare = scratch.node_dir(node) + "/spare." + std::to_string(r);
    ino_t spare_inode = 0;
    if (spare_bytes) {
      write_bytes(spare, std::string(spare_bytes, '\xA5'));
      spare_inode = inode_of(spare);
    }
    world.barrier();
    ASSERT_TRUE(redset::apply(env, *set, dir, me.files(), nullptr, spare).ok());
    // The header records the files' access times, which the first encode's
    // reads moved: the data after it must match byte for byte, and the
    // whole file must end where a new one does.
    auto header = redset::read_header(env, redfile);
    ASSERT_TRUE(header.ok()) << header.status().to_string();
    auto data = [&](const std::string& bytes) { return bytes.substr(std::min(bytes.size(), size_t(header->data_offset))); };
    std::string got = read_bytes(redfile);
    EXPECT_EQ(got.size(), fresh.size()) << "rank " << r;
    EXPECT_EQ(first_difference(data(got), data(fresh)), "") << "rank " << r << ": not the data of a new file";
    EXPECT_FALSE(env.exists(spare)) << "rank " << r;
    if (spare_bytes) {
      EXPECT_EQ(inode_of(redfile), spare_inode) << "rank " << r << ": the spare was not written over";
    }

    me.snapshot(*set);
    world.barrier();
    if (world.rank() == 0) me.lose();
    world.barrier();
    ASSERT_TRUE(redset::recover(env, *set, dir).ok());
    EXPECT_EQ(me.differences(), "") << "rank " << r;
  });
}

// An encode that fails once it has taken the spare (a write refused on one
// member) leaves neither the spare, nor a temporary, nor a redundancy file:
// every member reports the failure.
TEST(Recycle, AFailedEncodeLeavesNothingOfTheSpare) {
  mpi::InProcess(kRanks).run([&](mpi::Comm& world) {
    redset::test::Scratch scratch(world);
    std::string node = "node" + std::to_string(world.rank());
    auto set = redset::Set::create(world, node, Params{Scheme::partner, kRanks, 1, 1, 64 << 10});
    ASSERT_TRUE(set.ok());
    std::string dir = scratch.node_dir(node) + "/ds";
    auto r = static_cast<uint64_t>(world.rank());
    redset::test::Member me(dir, redset::test::make_sized_files(dir, "", {300000 + r}, r));
    std::string spare = scratch.node_dir(node) + "/spare." + std::to_string(r);
    write_bytes(spare, std::string(1u << 20, '\xA5'));
    io::FaultEnv env(io::Env::posix());
    if (world.rank() == 1) env.fail_write(3, ENOSPC);  // a piece after the header
    world.barrier();
    EXPECT_FALSE(redset::apply(env, *set, dir, me.files(), nullptr, spare).ok()) << "rank " << r;
    std::string redfile = redset::redundancy_file(*set, dir);
    EXPECT_FALSE(fs::exists(spare)) << "rank " << r;
    EXPECT_FALSE(fs::exists(redfile)) << "rank " << r;
    if (fs::exists(fs::path(redfile).parent_path()))
      for (const auto& e : fs::directory_iterator(fs::path(redfile).parent_path()))
        ADD_FAILURE() << "rank " << r << " left " << e.path();
  });
}

// A spare with a second name (a hard link an operator made to keep the
// evicted redundancy data) is not written over: its bytes stay under that
// name, and the encode makes a new file.
TEST(Recycle, ASpareWithAnotherNameIsLeftAlone) {
  mpi::InProcess(kRanks).run([&](mpi::Comm& world) {
    io::Env& env = io::Env::posix();
    redset::test::Scratch scratch(world);
    std::string node = "node" + std::to_string(world.rank());
    auto set = redset::Set::create(world, node, Params{Scheme::xor_code, kRanks, 1, 1, 64 << 10});
    ASSERT_TRUE(set.ok());
    std::string dir = scratch.node_dir(node) + "/ds";
    auto r = static_cast<uint64_t>(world.rank());
    redset::test::Member me(dir, redset::test::make_sized_files(dir, "", {150000 + r}, r));
    std::string spare = scratch.node_dir(node) + "/spare." + std::to_string(r);
    std::string kept = scratch.node_dir(node) + "/kept." + std::to_string(r);
    std::string old_bytes(1u << 20, '\xA5');
    write_bytes(spare, old_bytes);
    ASSERT_EQ(::link(spare.c_str(), kept.c_str()), 0);
    world.barrier();
    ASSERT_TRUE(redset::apply(env, *set, dir, me.files(), nullptr, spare).ok());
    std::string redfile = redset::redundancy_file(*set, dir);
    EXPECT_NE(inode_of(redfile), inode_of(kept)) << "rank " << r << ": the linked spare was written over";
    EXPECT_EQ(first_difference(read_bytes(kept), old_bytes), "") << "rank " << r;
    EXPECT_FALSE(fs::exists(spare)) << "rank " << r;
    EXPECT_EQ(fs::hard_link_count(kept), 1u) << "rank " << r;
  });
}

class RecycleTest : public ::testing::TestWithParam<Params> {};

TEST_P(RecycleTest, ALargerSpareIsCutToTheNewFile) { encode_over_spare(GetParam(), 3u << 20); }
TEST_P(RecycleTest, ASmallerSpareGrowsToTheNewFile) { encode_over_spare(GetParam(), 100); }
TEST_P(RecycleTest, AMissingSpareMeansANewFile) { encode_over_spare(GetParam(), 0); }

INSTANTIATE_TEST_SUITE_P(Schemes, RecycleTest,
                         ::testing::Values(Params{Scheme::xor_code, kRanks, 1, 1, 64 << 10},
                                           Params{Scheme::rs, kRanks, 2, 1, 64 << 10},
                                           Params{Scheme::partner, kRanks, 1, 1, 64 << 10},
                                           Params{Scheme::partner, kRanks, 1, 2, 64 << 10}),
                         [](const auto& info) {
                           return std::string(redset::scheme_file_tag(info.param.scheme)) +
                                  std::to_string(info.param.replicas);
                         });

}  // namespace
