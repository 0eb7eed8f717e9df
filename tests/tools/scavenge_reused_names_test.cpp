// scr_scavenge of a cached checkpoint whose files reuse the names of an
// older flushed one (ckpt/r<r>/a.dat, b.dat in both): 4 in-process ranks on
// 4 simulated nodes (XOR, one set of 4) write "one" to the prefix and "two"
// to the cache only; then the real scr_scavenge runs, as scr_run calls it
// after the job's last run.
//  - one node lost: its ranks are rebuilt from the copies, so the copies
//    must hold "two"'s bytes at their names first; "two" is saved whole;
//  - two nodes lost: "two" cannot be saved, and "one" keeps every file;
//  - the index's record of "two" lands but reports a failure (in process,
//    through an Env that loses the answer): the index decides.
#include <gtest/gtest.h>

#include <string>

#include "io/files.hpp"
#include "io/path.hpp"
#include "scavenge_scene.hpp"

namespace {

using namespace scr;
using scr::tools::testing::Scene;

TEST(ScavengeReusedNames, RebuildsLostRanksFromTheNewerCopies) {
  Scene scene;
  scene.one_flushed_then_two_cached();
  scene.lose("n3");
  EXPECT_EQ(scene.scavenge(), 0);
  scene.expect_files('t');
}

TEST(ScavengeReusedNames, AScavengeThatCannotSaveLeavesTheOlderCheckpointWhole) {
  Scene scene;
  scene.one_flushed_then_two_cached();
  scene.lose("n2");
  scene.lose("n3");
  EXPECT_EQ(scene.scavenge(), 3);
  scene.expect_files('o');
}

// The job was killed while it flushed "two" (dataset 2) over "one"'s names:
// old rank 0's copy of a.dat and old rank 3's (its node then lost) were
// partial temporaries, listed in the prefix. The scavenge settles them as
// the killed flush left them (not recorded: removed) before it saves "two";
// left for the next SCR_Init, they would be rolled forward once "two" is
// recorded, rank 3's partial copy over the file the scavenge rebuilt.
TEST(ScavengeReusedNames, AKilledFlushOfTheSameCheckpointIsSweptFirst) {
  Scene scene;
  scene.one_flushed_then_two_cached();
  rt::testing::leave_killed_copy(scene.prefix, 2, 0, "ckpt/r0/a.dat");
  rt::testing::leave_killed_copy(scene.prefix, 2, 3, "ckpt/r3/a.dat");
  scene.lose("n3");
  EXPECT_EQ(scene.scavenge(), 0);
  scene.expect_files('t');
  // The next job's SCR_Init finds nothing left to sweep.
  scene.settings["SCR_SIM_NODES"] = "n0,n1,n2";
  rt::testing::expect_offered(scene.settings, scene.prefix, 3, "two");
  scene.expect_files('t');
}

// The rename that puts the prefix's index in place succeeds, but the second
// one (the first marks the scavenge begun) reports EIO, as a file system may
// after the change landed.
class IndexRecordAnswerLost : public io::EnvWrapper {
 public:
  using EnvWrapper::EnvWrapper;
  Status rename(const std::string& from, const std::string& to) override {
    Status st = EnvWrapper::rename(from, to);
    if (st.ok() && io::path::basename(to) == "index.scr" && ++index_renames_ == 2)
      return Error(Errc::io_error, "the answer to the index's rename was lost");
    return st;
  }
  bool fired() const { return index_renames_ >= 2; }

 private:
  int index_renames_ = 0;
};

// The index records "two" although its edit reported a failure: "two"'s
// copies take their names, so that the index names its bytes; the failure
// is reported, and the next job restarts from "two", byte for byte.
TEST(ScavengeReusedNames, ARecordThatLandedButFailedPutsTheCopiesInPlace) {
  Scene scene;
  scene.one_flushed_then_two_cached();
  IndexRecordAnswerLost env(io::Env::posix());
  auto report = scene.scavenge_in_process(env);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_TRUE(env.fired());
  EXPECT_EQ(tools::scavenge::exit_code_of(*report), 5);
  scene.expect_files('t');
  rt::testing::expect_offered(scene.settings, scene.prefix, 4, "two");
  scene.expect_files('t');
}

}  // namespace
