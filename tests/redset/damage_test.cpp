// Damaged members: a redundancy file whose header fails its CRC, is cut
// short, or belongs to another member, and data files cut short or missing.
// None may be trusted; each makes its member lost, to be rebuilt exactly, or
// (beyond the tolerance) the recovery is refused and nothing changes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness.hpp"
#include "io/env.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "redset/meta.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Params;
using redset::Scheme;
namespace fs = std::filesystem;

using redset::test::flip_byte;

void cut(const std::string& path, int64_t by_or_to, bool to) {
  auto size = static_cast<int64_t>(fs::file_size(path));
  fs::resize_file(path, static_cast<uintmax_t>(to ? by_or_to : size - by_or_to));
}

// What happens to set member 1. `other` is member 2's redundancy file.
struct Damage {
  std::string name;
  std::function<void(const redset::test::Member&, const std::string& redfile,
                     const std::string& other)>
      apply;
};

std::vector<Damage> damages() {
  return {
      {"header payload byte", [](auto&, auto& red, auto&) { flip_byte(red, 40); }},
      {"envelope magic", [](auto&, auto& red, auto&) { flip_byte(red, 0); }},
      {"header cut short", [](auto&, auto& red, auto&) { cut(red, 20, true); }},
      {"empty redundancy file", [](auto&, auto& red, auto&) { cut(red, 0, true); }},
      {"redundancy data cut short", [](auto&, auto& red, auto&) { cut(red, 1, false); }},
      {"another member's redundancy file",
       [](auto&, auto& red, auto& other) {
         fs::copy_file(other, red, fs::copy_options::overwrite_existing);
       }},
      {"data file cut short",
       [](auto& me, auto&, auto&) { cut(me.dir() + "/" + me.files()[0], 1, false); }},
      // Bytes past the recorded size were never protected.
      {"data file grown",
       [](auto& me, auto&, auto&) {
         std::ofstream(me.dir() + "/" + me.files()[0], std::ios::app) << "appended";
       }},
      {"data file missing",
       [](auto& me, auto&, auto&) { ::unlink((me.dir() + "/" + me.files()[1]).c_str()); }},
      // Same size, wrong content: only the CRC32C recorded at apply tells.
      {"data file byte flipped",
       [](auto& me, auto&, auto&) { flip_byte(me.dir() + "/" + me.files()[0], 4000); }},
  };
}

class DamageTest : public ::testing::TestWithParam<Params> {
 protected:
  std::string node() const { return "node" + std::to_string(world_.rank()); }

  // This rank's member of its set (four ranks, each on its own simulated
  // node), with `me`'s files protected by the scheme under test.
  std::optional<redset::Set> protect(redset::test::Member& me) {
    auto set = redset::Set::create(comm_, node(), GetParam());
    if (!set.ok()) {
      ADD_FAILURE() << set.status().to_string();
      return std::nullopt;
    }
    EXPECT_TRUE(redset::apply(env_, *set, me.dir(), me.files()).ok());
    me.snapshot(*set);
    return std::move(*set);
  }

  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
  io::Env& env_ = io::Env::posix();
  redset::test::Scratch scratch_{world_};
  mpi::Comm comm_ = world_.split(world_.rank() / 4, world_.rank());
  std::string dir_ = scratch_.node_dir(node()) + "/dataset";
};

TEST_P(DamageTest, DamagedMembersAreRebuiltAndNeverTrusted) {
  redset::test::Member me(
      dir_, redset::test::make_sized_files(dir_, "",
                                          {5000u + 37u * static_cast<uint64_t>(world_.rank()), 100},
                                          static_cast<uint64_t>(world_.rank())));
  auto set = protect(me);
  ASSERT_TRUE(set);
  ASSERT_EQ(4, set->ranks());
  std::string redfile = redset::redundancy_file(*set, dir_);
  auto all_redfiles = mpi::allgather_strings(set->comm(), redfile);

  for (const Damage& d : damages()) {
    if (set->rank() == 1) d.apply(me, redfile, all_redfiles[2]);
    comm_.barrier();
    auto got = redset::recover(env_, *set, dir_);
    EXPECT_TRUE(got.ok()) << d.name << ": " << got.status().to_string();
    EXPECT_EQ("", me.differences()) << d.name;
    comm_.barrier();
  }
}

// The damaged member plus enough lost ones to exceed the tolerance.
TEST_P(DamageTest, DamageBeyondToleranceIsRefusedAndLeavesFilesAlone) {
  redset::test::Member me(
      dir_, redset::test::make_files(dir_, "", 99u + static_cast<uint64_t>(world_.rank())));
  auto set = protect(me);
  ASSERT_TRUE(set);
  // Member 1 damaged; then members 2, 3, ... lost until one more than tolerated.
  if (set->rank() == 1) flip_byte(redset::redundancy_file(*set, dir_), 40);
  // (For PARTNER with one replica, member 2 keeps member 1's only copy.)
  bool lost_here = set->rank() >= 2 && set->rank() <= set->tolerance() + 1;
  if (lost_here) me.lose();
  auto before = me.contents();
  comm_.barrier();
  auto got = redset::recover(env_, *set, dir_);
  EXPECT_EQ(Errc::unrecoverable, got.status().code()) << got.status().to_string();
  EXPECT_EQ(before, me.contents());
  if (lost_here) {
    EXPECT_EQ("", me.present());
  }
}

// A member whose files changed after apply while another member is lost:
// it is a source of the rebuild, which does not look at its files before
// reading them. No change may be kept: the recovery rebuilds every file
// exactly (always when the scheme tolerates two losses) or is refused.
TEST_P(DamageTest, AChangedSourceIsNeverKeptWhileAnotherMemberIsLost) {
  using Change = std::function<void(const std::string& file, const std::string& empty)>;
  const std::vector<std::pair<std::string, Change>> changes = {
      // The rebuild's reads stop at the recorded size: only the size tells.
      {"file grown", [](auto& file, auto&) { std::ofstream(file, std::ios::app) << "appended"; }},
      {"file replaced by a symlink",
       [](auto& file, auto&) {
         fs::rename(file, file + ".moved");
         fs::create_symlink(file + ".moved", file);
       }},
      // No read opens an empty file.
      {"empty file missing", [](auto&, auto& empty) { fs::remove(empty); }},
      {"empty file written", [](auto&, auto& empty) { std::ofstream(empty) << "x"; }},
  };
  for (size_t c = 0; c < changes.size(); ++c) {
    const auto& [name, change] = changes[c];
    std::string dir = dir_ + "." + std::to_string(c);
    redset::test::Member me(
        dir, redset::test::make_sized_files(dir, "", {3000u + 7u * static_cast<uint64_t>(world_.rank()), 0},
                                            11u + static_cast<uint64_t>(world_.rank())));
    auto set = protect(me);
    ASSERT_TRUE(set);
    if (set->rank() == 1) change(dir + "/" + me.files()[0], dir + "/" + me.files()[1]);
    if (set->rank() == 2) me.lose();
    comm_.barrier();
    auto got = redset::recover(env_, *set, dir);
    // With one loss tolerated, a refusal is right; so is a success when the
    // changed member's data was intact enough to rebuild the lost one (an
    // empty file adds no bytes to decode), and then its own file is rebuilt.
    if (set->tolerance() >= 2) {
      EXPECT_TRUE(got.ok()) << name << ": " << got.status().to_string();
    }
    if (got.ok()) {
      EXPECT_EQ("", me.differences()) << name;
    } else {
      EXPECT_EQ(Errc::unrecoverable, got.status().code()) << name << ": " << got.status().to_string();
    }
    comm_.barrier();
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, DamageTest,
                         ::testing::Values(Params{Scheme::xor_code, 4, 1, 1, 4096},
                                           Params{Scheme::rs, 4, 2, 1, 4096},
                                           Params{Scheme::partner, 4, 1, 1, 4096}),
                         [](const auto& info) {
                           return std::string(redset::scheme_file_tag(info.param.scheme));
                         });

// Redundancy data damaged on every surviving member, then a member lost: its
// rebuild can only produce wrong bytes, which the CRC32C recorded at apply
// catches. recover() fails on every process and leaves no wrong data file.
TEST_P(DamageTest, DamagedRedundancyDataNeverYieldsAWrongFile) {
  redset::test::Member me(
      dir_, redset::test::make_sized_files(dir_, "", {6000u + 13u * static_cast<uint64_t>(world_.rank())},
                                          7u + static_cast<uint64_t>(world_.rank())));
  auto set = protect(me);
  ASSERT_TRUE(set);
  std::string redfile = redset::redundancy_file(*set, dir_);
  bool lost_here = set->rank() == 2;
  if (lost_here) {
    me.lose();
  } else {
    // Damage every 97th byte of the data after the header (which starts page-aligned).
    auto size = static_cast<uint64_t>(fs::file_size(redfile));
    for (uint64_t off = redset::kDataAlign; off < size; off += 97) flip_byte(redfile, off);
  }
  comm_.barrier();
  auto got = redset::recover(env_, *set, dir_);
  EXPECT_FALSE(got.ok());
  EXPECT_TRUE(got.status().code() == Errc::corrupt || got.status().code() == Errc::unrecoverable)
      << got.status().to_string();
  if (lost_here) {
    for (const auto& f : me.files()) EXPECT_FALSE(fs::exists(dir_ + "/" + f)) << f << " was left behind";
  }
}

// Every member without files: the redundancy files hold headers only, and a
// lost member still gets its (empty) file list and header back.
TEST(EmptyDataset, ApplyAndRecoverWithNoFilesAnywhere) {
  auto world = mpi::borrow(MPI_COMM_WORLD);
  redset::test::Scratch scratch(world);
  for (Scheme scheme : {Scheme::partner, Scheme::xor_code, Scheme::rs}) {
    std::string node = "node" + std::to_string(world.rank());
    auto set = redset::Set::create(world, node, Params{scheme, 8, 2, 2, 4096});
    ASSERT_TRUE(set.ok());
    std::string dir = scratch.node_dir(node) + "/empty_" + redset::scheme_file_tag(scheme);
    redset::test::Member me(dir, {});
    ASSERT_TRUE(redset::apply(io::Env::posix(), *set, dir, std::vector<std::string>{}).ok());
    me.snapshot(*set);
    if (set->rank() >= 5 && set->rank() < 5 + set->tolerance()) me.lose();
    world.barrier();
    auto got = redset::recover(io::Env::posix(), *set, dir);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(got->empty());
    EXPECT_EQ("", me.differences());
  }
}

TEST(Single, KeepsMetadataOnlyAndRefusesAnyLoss) {
  auto world = mpi::borrow(MPI_COMM_WORLD);
  redset::test::Scratch scratch(world);
  std::string node = "node" + std::to_string(world.rank());
  auto set = redset::Set::create(world, node, Params{Scheme::single, 1, 1, 1, 4096});
  ASSERT_TRUE(set.ok());
  std::string dir = scratch.node_dir(node) + "/single";
  redset::test::Member me(dir, redset::test::make_sized_files(dir, "", {10, 0, 3}, 5));
  ASSERT_TRUE(redset::apply(io::Env::posix(), *set, dir, me.files()).ok());
  auto got = redset::recover(io::Env::posix(), *set, dir);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  EXPECT_EQ(me.files(), *got);
  if (world.rank() == 2) ::unlink((dir + "/" + me.files()[0]).c_str());
  got = redset::recover(io::Env::posix(), *set, dir);
  EXPECT_EQ(Errc::unrecoverable, got.status().code());
}

}  // namespace
