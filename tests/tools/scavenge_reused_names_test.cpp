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
#include <stdlib.h>

#include <filesystem>
#include <map>
#include <string>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "mpi/in_process.hpp"
#include "runtime/runtime.hpp"
#include "tools/scr_scavenge/run.hpp"
#include "../runtime/sim_job.hpp"

namespace {

using namespace scr;
namespace fs = std::filesystem;

struct Scene {
  Scene() {
    char tmpl[] = "/dev/shm/scr_scavenge_names.XXXXXX";
    EXPECT_NE(::mkdtemp(tmpl), nullptr);
    root = tmpl;
    prefix = root + "/prefix";
    EXPECT_TRUE(io::make_dirs(io::Env::posix(), prefix, 0700).ok());
    settings = rt::testing::sim_settings(root);
    settings["SCR_SET_SIZE"] = "4";
  }
  ~Scene() { (void)io::remove_tree(io::Env::posix(), root); }
  void lose(const std::string& node) const {
    (void)io::remove_tree(io::Env::posix(), root + "/cache/" + node);
    (void)io::remove_tree(io::Env::posix(), root + "/cntl/" + node);
  }
  // 4 ranks write checkpoint `name`, every byte `fill`; `flush`: to the prefix too.
  void write(const std::string& name, char fill, bool flush) {
    settings["SCR_FLUSH"] = flush ? "1" : "0";
    rt::testing::write_same_names(settings, prefix, name, fill);
    settings["SCR_FLUSH"] = "0";
  }
  // "one" flushed ('o' bytes), then "two" ('t') under the same names, in cache only.
  void one_flushed_then_two_cached() {
    write("one", 'o', true);
    write("two", 't', false);
  }
  // scr_scavenge's exit code.
  int scavenge() const {
    std::string cmd = "env";
    for (const char* key : {"SCR_CACHE_BASE", "SCR_CNTL_BASE", "SCR_SIM_NODES", "SCR_JOB_ID", "SCR_USER_NAME",
                            "SCR_SYSTEM_CONF_FILE", "SCR_CACHE_BYPASS"})
      cmd += " " + std::string(key) + "='" + settings.at(key) + "'";
    cmd += " " SCR_SCAVENGE_BIN " --prefix '" + prefix + "' >/dev/null 2>&1";
    int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  // scr_scavenge's work in this process, through `env`.
  Result<tools::scavenge::Report> scavenge_in_process(io::Env& env) const {
    tools::scavenge::Options o;
    o.prefix = prefix;
    o.cache_base = settings.at("SCR_CACHE_BASE");
    o.cntl_base = settings.at("SCR_CNTL_BASE");
    for (const auto& node : str::split(settings.at("SCR_SIM_NODES"), ',')) o.nodes.push_back(node);
    o.user = settings.at("SCR_USER_NAME");
    o.job_id = settings.at("SCR_JOB_ID");
    return tools::scavenge::run_scavenge(env, o);
  }
  void expect_files(char fill) const { rt::testing::expect_same_names(prefix, fill); }
  std::string root, prefix;
  std::map<std::string, std::string> settings;
};

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
