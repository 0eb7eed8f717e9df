// The scale benchmark's job life (bench/scale) at 64 simulated ranks: what
// it measures must be a job life that works, every restart restoring the
// newest checkpoint with every byte as written, at the same size and at
// half of it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "io/env.hpp"
#include "io/files.hpp"
#include "job_life.hpp"

namespace {

using scr::bench::LifeOptions;
using scr::bench::LifeResult;

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "\n  " + l;
  return out;
}

const scr::bench::Step* step(const LifeResult& r, const std::string& name, int ranks) {
  for (const auto& s : r.steps)
    if (s.name == name && s.ranks == ranks) return &s;
  return nullptr;
}

TEST(ScaleLife, SixtyFourRanksLiveAWholeJobLife) {
  char tmpl[] = "/tmp/scr_scale_life.XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  LifeOptions o;
  o.ranks = 64;
  o.dir = std::string(tmpl) + "/life";
  LifeResult r = scr::bench::run_job_life(o);
  (void)scr::io::remove_tree(scr::io::Env::posix(), tmpl);

  EXPECT_TRUE(r.failures.empty()) << joined(r.failures);
  // From cache after a node was lost, from the prefix, at half the size.
  std::string newest = scr::bench::newest_checkpoint();
  EXPECT_EQ(r.restored, (std::vector<std::string>{newest, newest, newest}));

  // Every scheme checkpointed several times, each step measured on every rank.
  for (auto [scheme, times] : {std::pair{"SINGLE", 2}, {"PARTNER", 3}, {"XOR", 3}, {"RS", 2}}) {
    const auto* s = step(r, std::string("checkpoint ") + scheme, 64);
    ASSERT_NE(s, nullptr) << scheme;
    EXPECT_EQ(s->times, times) << scheme;
    EXPECT_GT(s->messages_mean, 0) << scheme;
  }
  for (const char* name : {"init (nothing cached)", "finalize (flush)", "init (node lost: rebuild)",
                           "restart from cache", "init (all lost: fetch)", "restart from prefix"})
    EXPECT_NE(step(r, name, 64), nullptr) << name;
  EXPECT_NE(step(r, "restart at half size", 32), nullptr);
  const auto* init = step(r, "init (nothing cached)", 64);
  ASSERT_NE(init, nullptr);
  EXPECT_GT(init->rank0_peak_bytes, 0) << "rank 0's heap was not counted";
  // The flush wrote the prefix's metadata.
  EXPECT_GT(r.largest_files["index.scr"], 0u);
  EXPECT_GT(r.largest_files["summary.scrpp"], 0u);
}

// The listing and a restart at another size read the restart file table
// piece by piece: no process receives every file of the checkpoint. At 4x
// the ranks a rank sends less than 2x the bytes in those steps (a broadcast
// of the whole list or summary sends 4x).
TEST(ScaleLife, NoRankReceivesTheWholeListingAtRestart) {
  std::map<int, LifeResult> runs;
  for (int ranks : {32, 128}) {
    char tmpl[] = "/tmp/scr_scale_life.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    LifeOptions o;
    o.ranks = ranks;
    o.schemes = {"SINGLE"};
    o.dir = std::string(tmpl) + "/life";
    runs[ranks] = scr::bench::run_job_life(o);
    (void)scr::io::remove_tree(scr::io::Env::posix(), tmpl);
    EXPECT_TRUE(runs[ranks].failures.empty()) << ranks << " ranks:" << joined(runs[ranks].failures);
  }
  for (auto [name, small, large] : {std::tuple{"restart from cache", 32, 128}, {"restart from prefix", 32, 128},
                                    {"init (half the ranks)", 16, 64}, {"restart at half size", 16, 64}}) {
    const auto* a = step(runs[small == 16 ? 32 : small], name, small);
    const auto* b = step(runs[large == 64 ? 128 : large], name, large);
    ASSERT_TRUE(a && b) << name;
    EXPECT_LT(b->bytes_mean, 2 * a->bytes_mean) << name << ": " << a->bytes_mean << " bytes per rank at " << small
                                                << " ranks, " << b->bytes_mean << " at " << large;
  }
}

}  // namespace
