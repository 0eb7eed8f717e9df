// The offline rebuild (redset/offline.hpp) against the real MPI encoder: the
// members of a set apply their scheme with redset::apply, all their files in
// one directory as in a prefix; then rank 0 alone takes files away and
// rebuilds serially. Every combination of lost members up to what the scheme
// tolerates must come back bit-exact, with mode and times (redundancy files
// byte for byte); one loss more must be refused with nothing written.
// PARTNER, whose tolerance depends on where the losses fall, is checked
// against every combination.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "dir_image.hpp"
#include "harness.hpp"
#include "loss_cases.hpp"
#include "io/env.hpp"
#include "kvtree/codec.hpp"
#include "mpi/comm.hpp"
#include "mpi/mpi_comm.hpp"
#include "redset/offline.hpp"
#include "redset/redset.hpp"

namespace {

using namespace scr;
using redset::Scheme;
using redset::test::DirImage;
namespace offline = redset::offline;
namespace fs = std::filesystem;

using Config = redset::test::LossCase;
using redset::test::recoverable;
using redset::test::tolerance;

// One member's part of the dataset, as rank 0 learns it.
struct MemberFiles {
  int group = 0;
  int set_rank = 0;
  int world_rank = 0;
  std::vector<std::string> files;  // relative to the dataset directory
  std::string redundancy;          // file name
};

// A dataset applied by every rank of `comm`, its files (and the redundancy
// files) all in `dir`. Collective; rank 0 of comm gets every member's part.
std::vector<MemberFiles> apply_in_one_dir(const mpi::Comm& comm, const redset::Params& params,
                                          const std::string& dir,
                                          const std::vector<uint64_t>& sizes, uint64_t seed) {
  int w = mpi::borrow(MPI_COMM_WORLD).rank();
  auto set = redset::Set::create(comm, "node" + std::to_string(w), params);
  EXPECT_TRUE(set.ok()) << set.status().to_string();
  std::string prefix = "rank" + std::to_string(w) + "/";
  auto files = sizes.empty() ? redset::test::make_files(dir, prefix, seed + 7919u * w)
                             : redset::test::make_sized_files(dir, prefix, sizes, seed + w);
  Status applied = redset::apply(io::Env::posix(), *set, dir, files);
  EXPECT_TRUE(applied.ok()) << applied.to_string();
  kv::Tree mine;
  mine.set_int("GROUP", set->group());
  mine.set_int("RANK", set->rank());
  mine.set_int("WRANK", w);
  mine.set("RED", redset::redundancy_files(*set).front());
  for (size_t i = 0; i < files.size(); ++i) mine.child("FILE").set(std::to_string(i), files[i]);
  std::vector<MemberFiles> all;
  for (const std::string& bytes : mpi::allgather_strings(comm, kv::encode(mine))) {
    kv::Tree t = kv::decode(bytes).value();
    MemberFiles m{static_cast<int>(t.int_or("GROUP", 0)),
                  static_cast<int>(t.int_or("RANK", 0)),
                  static_cast<int>(t.int_or("WRANK", 0)),
                  {},
                  t.value_or("RED", "")};
    if (const kv::Tree* list = t.get("FILE"))
      for (int64_t i : list->int_keys()) m.files.push_back(list->value_or(std::to_string(i), ""));
    all.push_back(std::move(m));
  }
  return all;
}

std::map<int, offline::Place> places_of(const std::string& dir,
                                        const std::vector<MemberFiles>& members) {
  std::map<int, offline::Place> places;
  for (const auto& m : members) places[m.world_rank] = {dir, dir + "/" + m.redundancy};
  return places;
}

void lose(const std::string& dir, const MemberFiles& m) {
  for (const auto& f : m.files) fs::remove(dir + "/" + f);
  fs::remove(dir + "/" + m.redundancy);
}

std::vector<int> world_ranks_of(const std::vector<MemberFiles>& members, int group, unsigned mask) {
  std::vector<int> out;
  for (const auto& m : members)
    if (m.group == group && (mask & (1u << m.set_rank))) out.push_back(m.world_rank);
  std::sort(out.begin(), out.end());
  return out;
}

// Loses the members of set `group` in `mask` (bits are set ranks), surveys
// and rebuilds; "" when the outcome is the expected one.
std::string check_loss(const std::string& dir, const std::vector<MemberFiles>& members,
                       const DirImage& image, int group, unsigned mask, bool expect_rebuild) {
  io::Env& env = io::Env::posix();
  redset::test::restore_image(dir, image);
  std::vector<int> lost = world_ranks_of(members, group, mask);
  for (const auto& m : members)
    if (std::count(lost.begin(), lost.end(), m.world_rank)) lose(dir, m);
  DirImage after_loss = redset::test::take_image(dir);
  offline::Survey survey = offline::survey(env, places_of(dir, members));
  offline::Target target{dir, dir + "/" + redset::kRedundancyDir};
  if (expect_rebuild) {
    // Named beforehand, what a caller takes back should the rebuild stop:
    // exactly the lost files, where the rebuild puts them.
    std::vector<std::string> named = offline::rebuild_paths(survey, target), gone;
    for (const auto& m : members)
      if (std::count(lost.begin(), lost.end(), m.world_rank)) {
        for (const auto& f : m.files) gone.push_back(dir + "/" + f);
        gone.push_back(dir + "/" + m.redundancy);
      }
    std::sort(named.begin(), named.end());
    std::sort(gone.begin(), gone.end());
    if (named != gone) return "rebuild_paths names other files than the lost ones";
  }
  auto rebuilt = offline::rebuild(env, survey, target, {4096, {}, {}});
  if (!expect_rebuild) {
    if (rebuilt.status().code() != Errc::unrecoverable)
      return "expected a refusal, got: " + rebuilt.status().to_string();
    std::string diff = redset::test::image_differences(dir, after_loss);
    return diff.empty() ? "" : "a refused rebuild wrote: " + diff;
  }
  if (!rebuilt.ok()) return rebuilt.status().to_string();
  std::vector<int> got;
  for (const auto& r : *rebuilt) got.push_back(r.world_rank);
  if (got != lost) return "rebuilt other ranks than the lost ones";
  return redset::test::image_differences(dir, image);
}

class OfflineLossTest : public ::testing::TestWithParam<Config> {
 protected:
  mpi::Comm world_ = mpi::borrow(MPI_COMM_WORLD);
};

TEST_P(OfflineLossTest, EveryCombinationUpToToleranceIsRebuiltAndMoreIsRefused) {
  const Config& c = GetParam();
  redset::test::Scratch scratch(world_);
  for (int n = 2; n <= world_.size(); ++n) {
    if (c.checks >= n || c.replicas >= n) continue;
    mpi::Comm comm = world_.split(world_.rank() < n ? 0 : 1, world_.rank());
    std::string dir = scratch.node_dir("prefix") + "/" + c.name + "_n" + std::to_string(n);
    std::vector<MemberFiles> members;
    if (world_.rank() < n)
      members = apply_in_one_dir(comm, {c.scheme, n, c.checks, c.replicas, 4096}, dir, {},
                                 1000003u * static_cast<uint64_t>(n));
    world_.barrier();
    if (world_.rank() == 0) {
      ASSERT_EQ(static_cast<size_t>(n), members.size());
      DirImage image = redset::test::take_image(dir);
      for (unsigned mask = 0; mask < (1u << n); ++mask) {
        if (c.scheme != Scheme::partner && std::popcount(mask) > tolerance(c) + 1) continue;
        EXPECT_EQ("", check_loss(dir, members, image, 0, mask, recoverable(c, n, mask)))
            << c.name << " set size " << n << " lost mask " << mask;
      }
    }
    world_.barrier();
  }
}

// Files of megabytes in pieces of 64 KiB (read in place where they lie in one
// file): streamed, several pieces per chunk, each progress report at most
// one piece per stripe and lost member.
TEST_P(OfflineLossTest, LargeFilesAreStreamedInPieces) {
  const Config& c = GetParam();
  redset::test::Scratch scratch(world_);
  std::string dir = scratch.node_dir("prefix") + "/large_" + c.name;
  int n = world_.size();
  auto members = apply_in_one_dir(world_, {c.scheme, n, c.checks, c.replicas, 64 << 10}, dir,
                                  {2000000, 70001, 3}, 42);
  if (world_.rank() == 0) {
    DirImage image = redset::test::take_image(dir);
    unsigned mask = (1u << tolerance(c)) - 1;
    for (const auto& m : members)
      if (mask & (1u << m.set_rank)) lose(dir, m);
    size_t piece = 64 << 10, calls = 0, largest = 0;
    offline::Options options{piece,
                             [&](uint64_t bytes) {
                               ++calls;
                               largest = std::max<size_t>(largest, bytes);
                             },
                             {}};
    auto rebuilt = offline::rebuild(io::Env::posix(),
                                    offline::survey(io::Env::posix(), places_of(dir, members)),
                                    {dir, dir + "/" + redset::kRedundancyDir}, options);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().to_string();
    EXPECT_EQ("", redset::test::image_differences(dir, image));
    EXPECT_GE(calls, 4u);
    EXPECT_LE(largest, piece * static_cast<size_t>(n * tolerance(c)));
  }
  world_.barrier();
}

INSTANTIATE_TEST_SUITE_P(Schemes, OfflineLossTest,
                         ::testing::ValuesIn(redset::test::all_loss_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
