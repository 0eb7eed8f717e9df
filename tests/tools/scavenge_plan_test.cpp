// Which cached datasets scr_scavenge saves (tools/scr_scavenge/plan.hpp):
// every output not flushed, the newest checkpoint not flushed and, should it
// fail, older ones down to the newest the prefix can already load.
#include <gtest/gtest.h>

#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "tools/scr_scavenge/plan.hpp"

namespace {

using namespace scr;
using namespace scr::tools::scavenge;

CachedDataset cached(int id, int flags, bool complete = true, bool flushed = false) {
  CachedDataset ds;
  ds.id = id;
  ds.desc.set_int("ID", id);
  ds.desc.set("NAME", "d" + std::to_string(id));
  ds.desc.set_int("FLAGS", flags);
  ds.info = rt::DatasetInfo::from_tree(ds.desc);
  ds.complete = complete;
  ds.flushed = flushed;
  return ds;
}

// An index in which dataset `id` is a loadable checkpoint.
rt::PrefixIndex index_with_loadable(int id) {
  rt::PrefixIndex idx;
  kv::Tree desc;
  desc.set_int("ID", id);
  desc.set("NAME", "d" + std::to_string(id));
  desc.set_int("FLAGS", rt::kFlagCheckpoint);
  idx.upsert(desc);
  idx.mark_flushed(id);
  return idx;
}

std::vector<std::string> reasons(const Plan& p) {
  std::vector<std::string> out;
  for (const auto& s : p.skipped) out.push_back(std::to_string(s.id) + ": " + s.why);
  return out;
}

constexpr int kCkpt = rt::kFlagCheckpoint;
constexpr int kOut = rt::kFlagOutput;

TEST(ScavengePlan, NewestCheckpointFirstThenOlderOnesAndEveryOutput) {
  Plan p = plan_scavenge({cached(1, kCkpt), cached(2, kOut), cached(3, kCkpt), cached(4, kOut)},
                         rt::PrefixIndex(), false);
  EXPECT_EQ((std::vector<int>{3, 1}), p.checkpoints);
  EXPECT_EQ((std::vector<int>{2, 4}), p.outputs);
  EXPECT_TRUE(p.skipped.empty());
}

TEST(ScavengePlan, FlushedIncompleteAndOlderThanThePrefixAreSkipped) {
  Plan p = plan_scavenge({cached(1, kCkpt), cached(3, kCkpt, false), cached(4, kCkpt, true, true),
                          cached(5, kOut, true, true), cached(6, kCkpt)},
                         index_with_loadable(2), false);
  EXPECT_EQ((std::vector<int>{6}), p.checkpoints);
  EXPECT_TRUE(p.outputs.empty());
  EXPECT_EQ((std::vector<std::string>{"1: older than d2, which the prefix already has",
                                      "3: incomplete: the run ended while it was being written",
                                      "4: already flushed", "5: already flushed"}),
            reasons(p));
}

TEST(ScavengePlan, AFlushedEntryInTheIndexCounts) {
  Plan p = plan_scavenge({cached(2, kCkpt)}, index_with_loadable(2), false);
  EXPECT_TRUE(p.empty());
  EXPECT_EQ((std::vector<std::string>{"2: already flushed"}), reasons(p));
}

// The prefix's newer checkpoint has lost a file: the older cached one is
// saved, since once the caches go it may be the newest that loads.
TEST(ScavengePlan, ANewerCheckpointWithAFileGoneDoesNotStopAnOlderOne) {
  Plan p = plan_scavenge({cached(1, kCkpt), cached(3, kCkpt)}, index_with_loadable(2), false,
                         [](int id) { return id != 2; });
  EXPECT_EQ((std::vector<int>{3, 1}), p.checkpoints);
  EXPECT_TRUE(p.skipped.empty());
}

TEST(ScavengePlan, AllTakesOlderCheckpointsToo) {
  Plan p = plan_scavenge({cached(1, kCkpt), cached(3, kCkpt)}, index_with_loadable(2), true);
  EXPECT_EQ((std::vector<int>{3, 1}), p.checkpoints);
  EXPECT_TRUE(p.skipped.empty());
}

TEST(ScavengePlan, ACheckpointThatIsAlsoOutputIsInBothLists) {
  Plan p = plan_scavenge({cached(1, kCkpt | kOut), cached(2, kCkpt)}, rt::PrefixIndex(), false);
  EXPECT_EQ((std::vector<int>{2, 1}), p.checkpoints);
  EXPECT_EQ((std::vector<int>{1}), p.outputs);
}

}  // namespace
