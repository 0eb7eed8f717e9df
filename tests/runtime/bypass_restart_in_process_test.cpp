// Checkpoints written straight into the prefix (BYPASS=1 on their
// descriptor) beside cached ones: the next job of the allocation restarts
// from the newest checkpoint, whichever kind it is, as SCR does.
#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>

#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "sim_job.hpp"

namespace scr::rt::testing {
namespace {

// Even checkpoints go to the prefix, odd ones are cached with XOR.
void alternate_bypass(SimJob& job) {
  std::string conf = job.prefix() + "/../app.conf";
  std::ofstream(conf) << "CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=2 BYPASS=1\n";
  job.set("SCR_CONF_FILE", conf);
  // SCR_Finalize flushes the newest checkpoint when it is not in the prefix.
  job.set("SCR_FLUSH", "10");
}

// One job offered checkpoint `first` rejects it (SCR_Complete_restart(0))
// and must then restart from `then`, every byte intact.
void reject_then_restart_from(SimJob& job, const std::string& first, const std::string& then) {
  job.run([&](mpi::Comm& world, Runtime& rt) {
    bool have = false;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    EXPECT_EQ(name, first);
    ASSERT_TRUE(rt.start_restart().ok());
    EXPECT_FALSE(rt.complete_restart(false).ok());
    EXPECT_EQ(restart_and_verify(rt, world.rank()), then);
    EXPECT_TRUE(rt.finalize().ok());
  });
}

void write_checkpoints(SimJob& job, const std::vector<std::string>& names) {
  job.run([&](mpi::Comm& world, Runtime& rt) {
    for (const auto& n : names) EXPECT_TRUE(write_checkpoint(rt, world.rank(), n).ok()) << n;
    EXPECT_TRUE(rt.finalize().ok());
  });
}

TEST(BypassRestartInProcess, ANewerBypassCheckpointOutranksACachedOne) {
  SimJob job;
  alternate_bypass(job);
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});  // cached, then in the prefix
  // The newest checkpoint was in the prefix already: nothing older was flushed.
  EXPECT_FALSE(flushed(job, "ckpt.1")) << "SCR_Finalize flushed the older cached checkpoint";
  job.restart_from("ckpt.2");
  // A completed restart leaves it the first choice of the next job, also
  // once a node is lost (and ckpt.1 rebuilt).
  job.restart_from("ckpt.2");
  job.lose_node(1);
  job.restart_from("ckpt.2");
}

TEST(BypassRestartInProcess, ANewerCachedCheckpointOutranksABypassOne) {
  SimJob job;
  alternate_bypass(job);
  write_checkpoints(job, {"ckpt.1", "ckpt.2", "ckpt.3"});
  job.restart_from("ckpt.3");
  // Rejected, ckpt.3 gives way to ckpt.2, fetched from the prefix.
  reject_then_restart_from(job, "ckpt.3", "ckpt.2");
}

// SCR_Start_output of a bypass checkpoint first finishes the background
// flushes; when one of them failed the call fails, and the retry is still
// the same checkpoint number, so the same descriptor (INTERVAL=2: bypass).
TEST(BypassRestartInProcess, AStartThatFailsOnAFlushKeepsItsCheckpointNumber) {
  SimJob job;
  alternate_bypass(job);
  job.set("SCR_FLUSH", "1");
  job.set("SCR_FLUSH_ASYNC", "1");
  job.set("SCR_FLUSH_ASYNC_BW", "10000");  // still in flight at the next call
  job.run([](mpi::Comm& world, Runtime& rt) {
    // Rank 2's background copy of ckpt.1 finds the prefix full.
    if (world.rank() == 2) inject_faults(rt).fail_write(1, ENOSPC, "ckpt.1/rank_");
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_FALSE(rt.start_output("ckpt.2", kFlagCheckpoint).ok()) << "the failed flush was not reported";
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  PrefixIndex idx = load_index(job);
  auto id = idx.find_name("ckpt.2");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(idx.find(*id)->int_or("CKPT", 0), 2) << "the failed call used up checkpoint number 2";
}

// At another size the cached checkpoint is saved to the prefix before the
// cache goes; older than the bypass checkpoint there, it is only a
// fallback: a prefix too full to take it does not keep the job of 2 from
// the newer one.
TEST(BypassRestartInProcess, AFullPrefixAtAnotherSizeRestartsFromTheNewerBypassCheckpoint) {
  SimJob job;
  alternate_bypass(job);
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});  // cached, then in the prefix
  ASSERT_FALSE(flushed(job, "ckpt.1"));
  job.set("SCR_SIM_NODES", "n0,n1");
  RefusingPrefix full[2] = {{job.prefix(), Errc::no_space}, {job.prefix(), Errc::no_space}};
  (void)restart_offered(job.settings, job.prefix(), 2, "ckpt.2", read_every_old_rank("ckpt.2", SimJob::kRanks),
                        [&](int rank) { return &full[rank]; });
}

// The same with SCR_FETCH=0: nothing will read the newer checkpoint, so the
// cached one stays the only copy and SCR_Init fails, keeping the cache.
TEST(BypassRestartInProcess, AFullPrefixAtAnotherSizeWithoutFetchKeepsTheCache) {
  SimJob job;
  alternate_bypass(job);
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});
  job.set("SCR_SIM_NODES", "n0,n1");
  job.set("SCR_FETCH", "0");
  RefusingPrefix full[2] = {{job.prefix(), Errc::no_space}, {job.prefix(), Errc::no_space}};
  mpi::InProcess(2, 1 << 20).run([&](mpi::Comm& world) {
    auto rt = Runtime::init(config_from(job.settings, job.prefix()), world, &full[world.rank()]);
    EXPECT_EQ(rt.status().code(), Errc::no_space) << rt.status().to_string();
  });
}

// SCR_Current back to the cached checkpoint: the next job restarts from it,
// not from the newer one in the prefix.
TEST(BypassRestartInProcess, SCRCurrentRollsBackPastABypassCheckpoint) {
  SimJob job;
  alternate_bypass(job);
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    EXPECT_TRUE(rt.set_current("ckpt.1").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.restart_from("ckpt.1");
}

// SCR_CURRENT orders the fetch, as in SCR: a new allocation (every node's
// storage gone) restarts from the checkpoint it names; a relaunch in the
// same allocation with it still set restarts from the newest checkpoint
// written since, not from the one named again.
TEST(BypassRestartInProcess, SCRCurrentLeftSetDoesNotRollBackEveryRelaunch) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});
  job.lose_every_node();
  job.set("SCR_CURRENT", "ckpt.1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_EQ(restart_and_verify(rt, world.rank()), "ckpt.1");
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.3").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.restart_from("ckpt.3");
}

// A bypass checkpoint whose file in the prefix was damaged is checked at
// SCR_Init: marked failed, and the job restarts from the cached one.
TEST(BypassRestartInProcess, ADamagedBypassCheckpointGivesWayToTheCachedOne) {
  SimJob job;
  alternate_bypass(job);
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});
  std::string victim = job.prefix() + "/" + file_name("ckpt.2", 2);
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(10);
    f.put('#');
  }
  job.restart_from("ckpt.1");
  PrefixIndex idx = load_index(job);
  auto id = idx.find_name("ckpt.2");
  ASSERT_TRUE(id.has_value());
  EXPECT_TRUE(idx.failed(*id)) << "the damaged checkpoint was not marked failed";
}

// The cache's size counts what is in cache: a checkpoint read in place is
// not evicted for, and does not evict, a cached one.
TEST(BypassRestartInProcess, ABypassCheckpointTakesNoPlaceInTheCache) {
  SimJob job;
  alternate_bypass(job);
  job.set("SCR_CACHE_SIZE", "2");
  write_checkpoints(job, {"ckpt.1", "ckpt.2", "ckpt.3"});
  // ckpt.1 and ckpt.3 are both still cached: lose every copy of ckpt.3 on
  // one node and the restart rebuilds it; the rejected ckpt.3 then gives
  // way to ckpt.1, from cache (never flushed, so nowhere else).
  job.lose_node(0);
  reject_then_restart_from(job, "ckpt.3", "ckpt.1");
}

// A bypass checkpoint whose record fails (the prefix full for its summary)
// leaves the one before it the restart's choice in the allocation, also
// with SCR_FETCH=0.
TEST(BypassRestartInProcess, AFailedBypassCheckpointKeepsThePreviousOne) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  job.run([&](mpi::Comm& world, Runtime& rt) {
    ASSERT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    if (world.rank() == 0) inject_faults(rt).fail_write(1, ENOSPC, "summary.scr");
    EXPECT_EQ(write_checkpoint(rt, world.rank(), "ckpt.2").code(), Errc::no_space);
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.set("SCR_FETCH", "0");
  job.restart_from("ckpt.1");
}

// What the next job's SCR_Init offers ("" for nothing); it restarts from
// nothing and finalizes.
std::string offered(SimJob& job) {
  std::string got;
  job.run([&](mpi::Comm& world, Runtime& rt) {
    bool have = false;
    std::string name;
    EXPECT_TRUE(rt.have_restart(&have, &name).ok());
    if (world.rank() == 0) got = have ? name : "";
    EXPECT_TRUE(rt.finalize().ok());
  });
  return got;
}

// A newer cached checkpoint lost with a node leaves the bypass checkpoint
// before it the newest: the restart takes it, not the older cached one.
TEST(BypassRestartInProcess, ALostNewerCachedCheckpointLeavesTheBypassOneFirst) {
  SimJob job;
  job.set("SCR_CACHE_SIZE", "4");
  write_checkpoints(job, {"ckpt.1"});  // XOR
  job.set("SCR_CACHE_BYPASS", "1");
  write_checkpoints(job, {"ckpt.2"});  // in the prefix
  job.set("SCR_CACHE_BYPASS", "0");
  std::string conf = job.prefix() + "/../single.conf";
  std::ofstream(conf) << "CKPT=0 TYPE=SINGLE\n";
  job.set("SCR_CONF_FILE", conf);
  write_checkpoints(job, {"ckpt.3"});  // SINGLE: lost with its node
  job.lose_node(0);
  EXPECT_EQ(offered(job), "ckpt.2");
  EXPECT_EQ(offered(job), "ckpt.2") << "the next job of the allocation no longer has it";
}

// Checkpoints cached after a bypass one, the newest flushed, then every
// cached one lost (two nodes, beyond XOR): the restart fetches the newest,
// not the bypass checkpoint the filemaps still list.
TEST(BypassRestartInProcess, ANewerCheckpointInThePrefixOutranksAnOlderBypassOne) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  write_checkpoints(job, {"ckpt.1"});
  job.set("SCR_CACHE_BYPASS", "0");
  job.set("SCR_FLUSH", "10");  // SCR_Finalize flushes ckpt.3
  write_checkpoints(job, {"ckpt.2", "ckpt.3"});
  ASSERT_TRUE(flushed(job, "ckpt.3"));
  job.lose_node(1);
  job.lose_node(2);
  job.restart_from("ckpt.3");
  job.restart_from("ckpt.3");
}

// A newer cached checkpoint, flushed (CURRENT), then lost with its node:
// the bypass checkpoint before it comes before the older cached one.
TEST(BypassRestartInProcess, ACurrentNewerThanTheBypassOneDoesNotSetItAside) {
  SimJob job;
  std::string conf = job.prefix() + "/../three.conf";
  std::ofstream(conf) << "CKPT=0 TYPE=XOR\nCKPT=1 INTERVAL=2 BYPASS=1\nCKPT=2 INTERVAL=3 TYPE=SINGLE\n";
  job.set("SCR_CONF_FILE", conf);
  job.set("SCR_FLUSH", "10");  // SCR_Finalize flushes ckpt.3
  job.set("SCR_CACHE_SIZE", "2");
  write_checkpoints(job, {"ckpt.1", "ckpt.2", "ckpt.3"});  // XOR, prefix, SINGLE
  ASSERT_EQ(load_index(job).current(), "ckpt.3");
  job.lose_node(0);  // ckpt.3 (SINGLE) cannot be rebuilt, ckpt.1 (XOR) can
  EXPECT_EQ(offered(job), "ckpt.2");
  EXPECT_EQ(load_index(job).current(), "ckpt.3") << "a new allocation would not fetch the newest";
}

// SCR_PREFIX_SIZE=1 deletes an older bypass checkpoint from the prefix; an
// SCR_Current naming it changes nothing (it is unknown), and a cached
// checkpoint newer than it stays in cache.
TEST(BypassRestartInProcess, SCRCurrentOfABypassCheckpointTheWindowDeletedChangesNothing) {
  SimJob job;
  alternate_bypass(job);
  job.set("SCR_PREFIX_SIZE", "1");
  job.set("SCR_CACHE_SIZE", "2");
  job.run([](mpi::Comm& world, Runtime& rt) {
    for (const char* n : {"ckpt.1", "ckpt.2", "ckpt.3", "ckpt.4"})  // ckpt.2 and ckpt.4 in the prefix
      EXPECT_TRUE(write_checkpoint(rt, world.rank(), n).ok()) << n;
    EXPECT_TRUE(rt.set_current("ckpt.2").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_FALSE(load_index(job).find_name("ckpt.2").has_value()) << "the window kept ckpt.2";
  reject_then_restart_from(job, "ckpt.4", "ckpt.3");
}

// The same when a cached checkpoint's flush makes the window delete it.
TEST(BypassRestartInProcess, SCRCurrentOfABypassCheckpointACachedFlushDeletedChangesNothing) {
  SimJob job;
  alternate_bypass(job);
  job.set("SCR_FLUSH", "1");
  job.set("SCR_PREFIX_SIZE", "1");
  job.set("SCR_CACHE_SIZE", "2");
  job.run([](mpi::Comm& world, Runtime& rt) {
    for (const char* n : {"ckpt.1", "ckpt.2", "ckpt.3"})  // ckpt.3's flush deletes ckpt.2
      EXPECT_TRUE(write_checkpoint(rt, world.rank(), n).ok()) << n;
    EXPECT_TRUE(rt.set_current("ckpt.2").ok());
    bool have = false;
    std::string name;
    EXPECT_TRUE(rt.have_restart(&have, &name).ok());
    EXPECT_FALSE(have) << "offered " << name;
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.set("SCR_FETCH", "0");
  job.restart_from("ckpt.3");  // still in cache
}

// SCR_Drop of the bypass checkpoint SCR_Init offered, before the restart:
// it is no longer offered.
TEST(BypassRestartInProcess, ADropBeforeTheRestartWithdrawsTheOffer) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});
  job.run([](mpi::Comm&, Runtime& rt) {
    bool have = false;
    std::string name;
    ASSERT_TRUE(rt.have_restart(&have, &name).ok());
    ASSERT_EQ(name, "ckpt.2");
    EXPECT_TRUE(rt.drop("ckpt.2").ok());
    EXPECT_TRUE(rt.have_restart(&have, &name).ok());
    EXPECT_FALSE(have) << "still offered: '" << name << "'";  // nothing else was cached
    EXPECT_TRUE(rt.finalize().ok());
  });
}

// The index's CURRENT moved back between jobs (scr_index --current): the
// newer bypass checkpoint is set aside and the fetch starts with CURRENT.
TEST(BypassRestartInProcess, TheIndexCurrentMovedBackIsHonoured) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  write_checkpoints(job, {"ckpt.1", "ckpt.2"});
  PrefixIndex idx = load_index(job);
  idx.set_current("ckpt.1");
  ASSERT_TRUE(idx.save(io::Env::posix()).ok());
  EXPECT_EQ(offered(job), "ckpt.1");
  EXPECT_EQ(load_index(job).current(), "ckpt.1");
}

// A bypass checkpoint dropped from the index (SCR_Drop) is not restarted
// from; the restart fetches the one before it.
TEST(BypassRestartInProcess, ADroppedBypassCheckpointIsNotRestartedFrom) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    EXPECT_TRUE(rt.drop("ckpt.2").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  job.restart_from("ckpt.1");
}

// Every rank now runs where another one wrote: the entries of the bypass
// checkpoint are in filemaps the ranks adopt; it is restarted from, and
// nothing is reported lost.
TEST(BypassRestartInProcess, RanksOnOtherNodesRestartFromTheBypassCheckpoint) {
  SimJob job;
  job.set("SCR_CACHE_BYPASS", "1");
  job.set("SCR_LOG_ENABLE", "1");
  job.set("SCR_FETCH", "0");  // from the filemaps' entry, not a fetch
  job.checkpoint("ckpt.1");
  job.set("SCR_SIM_NODES", "n1,n0,n3,n2");
  job.restart_from("ckpt.1");
  auto log = io::read_file(io::Env::posix(), job.prefix() + "/.scr/log");
  ASSERT_TRUE(log.ok()) << log.status().to_string();
  EXPECT_EQ(log->find("DATASET_LOST"), std::string::npos) << *log;
}

// SCR_Drop of the newest checkpoint, a bypass one: SCR_Finalize flushes the
// cached one before it, as it would have without the bypass one.
TEST(BypassRestartInProcess, DroppingTheBypassCheckpointLetsFinalizeFlushTheCachedOne) {
  SimJob job;
  alternate_bypass(job);
  job.run([](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.1").ok());
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), "ckpt.2").ok());
    EXPECT_TRUE(rt.drop("ckpt.2").ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
  EXPECT_TRUE(flushed(job, "ckpt.1"));
}

}  // namespace
}  // namespace scr::rt::testing
