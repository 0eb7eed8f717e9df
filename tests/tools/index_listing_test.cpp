// scr_index's listing in SCR 3.1's layout, byte for byte, as scripts parse it.
#include <gtest/gtest.h>

#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"
#include "tests/tools/local_epoch.hpp"
#include "tools/common/index_view.hpp"
#include "tools/common/times.hpp"

namespace {

using scr::tools::DatasetRow;
using scr::tools::test::local_epoch;

DatasetRow row(int id, const std::string& name, int flags, bool flushed, bool failed, int64_t when) {
  DatasetRow r;
  r.id = id;
  r.name = name;
  r.flags = flags;
  r.complete = r.flushed = flushed;
  r.failed = failed;
  r.flushed_secs = when;
  return r;
}

TEST(IndexListing, ScrsColumnsCheckpointsOnlyNewestFirst) {
  int64_t t = local_epoch(2026, 11, 21, 18, 58, 57);
  std::vector<DatasetRow> rows = {
      row(1, "step.10", scr::rt::kFlagCheckpoint, true, true, t),
      row(2, "step.20", scr::rt::kFlagCheckpoint, true, false, t),
      row(3, "out.25", scr::rt::kFlagOutput, true, false, t),  // SCR lists checkpoints only
      row(12, "step.30", scr::rt::kFlagCheckpoint | scr::rt::kFlagOutput, true, false, t + 1),
      row(13, "step.40", scr::rt::kFlagCheckpoint, false, false, 0),  // flush unfinished
  };
  rows[3].current = true;
  EXPECT_EQ(
      "DSET VALID FLUSHED             CUR NAME\n"
      "  13 NO                            step.40\n"
      "  12 YES   2026-11-21T18:58:58   * step.30\n"
      "   2 YES   2026-11-21T18:58:57     step.20\n"
      "   1 NO    2026-11-21T18:58:57     step.10\n",
      scr::tools::scr_listing_text(rows));
  EXPECT_EQ("DSET VALID FLUSHED             CUR NAME\n", scr::tools::scr_listing_text({}));
}

TEST(Times, ScrsTimestampAndAsctimeForms) {
  int64_t t = local_epoch(2030, 1, 2, 3, 4, 5);
  EXPECT_EQ("2030-01-02T03:04:05", scr::rt::scr31::timestamp(t));
  EXPECT_EQ("Wed Jan  2 03:04:05 2030", scr::tools::asctime_text(t));
}

}  // namespace
