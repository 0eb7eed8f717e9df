#include "sim_job.hpp"

#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "io/env.hpp"
#include "io/fault_env.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "mpi/in_process.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/prefix/deferred.hpp"

namespace scr::rt::testing {

std::string file_name(const std::string& dataset, int rank) {
  return dataset + "/rank_" + std::to_string(rank) + ".dat";
}

std::string restart_and_verify(Runtime& rt, int rank) {
  bool have = false;
  std::string name;
  EXPECT_TRUE(rt.have_restart(&have, &name).ok());
  if (!have) return "";
  auto started = rt.start_restart();
  EXPECT_TRUE(started.ok()) << started.status().to_string();
  // The listing names this rank's file with its size, however the files got
  // into cache (Complete, a rebuild, a fetch).
  auto listing = rt.restart_listing();
  EXPECT_TRUE(listing.ok()) << listing.status().to_string();
  bool listed = false;
  for (uint64_t i = 0; listing.ok() && i < (*listing)->size(); ++i) {
    auto f = (*listing)->at(i);
    EXPECT_TRUE(f.ok()) << f.status().to_string();
    if (f.ok() && f->name == file_name(name, rank)) {
      listed = true;
      EXPECT_EQ(f->rank, rank) << f->name;
      EXPECT_EQ(f->size, file_bytes(name, rank).size()) << f->name;
    }
  }
  EXPECT_TRUE(listed) << file_name(name, rank) << " is not in the restart listing";
  auto path = rt.route_file(file_name(name, rank));
  EXPECT_TRUE(path.ok()) << path.status().to_string();
  auto bytes = path.ok() ? io::read_file(io::Env::posix(), *path, 1 << 20) : Result<std::string>(path.status());
  EXPECT_TRUE(bytes.ok()) << bytes.status().to_string();
  bool valid = bytes.ok() && *bytes == file_bytes(name, rank);
  EXPECT_TRUE(valid) << "rank " << rank << " read other bytes than it wrote into " << name;
  EXPECT_TRUE(rt.complete_restart(valid).ok());
  return name;
}

SimJob::SimJob() {
  char tmpl[] = "/tmp/scr_sim_job.XXXXXX";
  if (char* p = ::mkdtemp(tmpl)) root_ = p;
  else ADD_FAILURE() << "mkdtemp failed";
  prefix_ = root_ + "/prefix";
  cache_ = root_ + "/cache";
  cntl_ = root_ + "/cntl";
  EXPECT_TRUE(io::make_dirs(io::Env::posix(), prefix_, 0700).ok());
  settings = sim_settings(root_);
}

std::map<std::string, std::string> sim_settings(const std::string& root) {
  return {
      {"SCR_PREFIX", root + "/prefix"},
      {"SCR_CACHE_BASE", root + "/cache"},
      {"SCR_CNTL_BASE", root + "/cntl"},
      {"SCR_SIM_NODES", "n0,n1,n2,n3"},
      {"SCR_CACHE_BYPASS", "0"},
      {"SCR_COPY_TYPE", "XOR"},
      {"SCR_FLUSH", "0"},
      {"SCR_JOB_ID", "sim"},
      {"SCR_USER_NAME", "tester"},
      // No system file of this machine may leak into the test.
      {"SCR_SYSTEM_CONF_FILE", root + "/system.conf"},
  };
}

SimJob::~SimJob() { (void)io::remove_tree(io::Env::posix(), root_); }

SimDir::SimDir(const std::string& name) {
  std::string tmpl = "/dev/shm/" + name + ".XXXXXX";
  if (char* p = ::mkdtemp(tmpl.data())) root = p;
  else ADD_FAILURE() << "mkdtemp failed";
  prefix = root + "/prefix", cache = root + "/cache", cntl = root + "/cntl";
  EXPECT_TRUE(io::make_dirs(io::Env::posix(), prefix, 0700).ok());
  settings = sim_settings(root);
}

SimDir::~SimDir() { (void)io::remove_tree(io::Env::posix(), root); }

void SimDir::lose(const std::string& node) const {
  (void)io::remove_tree(io::Env::posix(), cache + "/" + node);
  (void)io::remove_tree(io::Env::posix(), cntl + "/" + node);
}

Config SimJob::config() const { return config_from(settings, prefix_); }

Config config_from(const std::map<std::string, std::string>& settings, const std::string& cwd) {
  ConfigSources sources = ConfigSources::from_variables(settings, io::Env::posix(), cwd);
  auto loaded = Config::load(sources);
  EXPECT_TRUE(loaded.ok()) << loaded.status().to_string();
  return loaded ? std::move(loaded).value() : Config();
}

void SimJob::start(const std::function<void(mpi::Comm& world, Result<std::unique_ptr<Runtime>>& rt)>& each) {
  Config cfg = config();
  mpi::InProcess(kRanks).run([&](mpi::Comm& world) {
    // Every rank works through a file system that passes everything on
    // until a test arms it (inject_faults, before_init).
    io::FaultEnv fs(io::Env::posix());
    if (before_init) before_init(fs);
    auto rt = Runtime::init(cfg, world, &fs);
    each(world, rt);
  });
}

void SimJob::run(const std::function<void(mpi::Comm& world, Runtime& rt)>& body) {
  start([&](mpi::Comm& world, Result<std::unique_ptr<Runtime>>& rt) {
    ASSERT_TRUE(rt.ok()) << "rank " << world.rank() << ": " << rt.status().to_string();
    body(world, **rt);
  });
}

std::vector<Status> SimJob::init_only() {
  std::vector<Status> out(kRanks);
  start([&](mpi::Comm& world, Result<std::unique_ptr<Runtime>>& rt) {
    out[static_cast<size_t>(world.rank())] = rt.status();
    if (rt.ok()) {
      EXPECT_TRUE((*rt)->finalize().ok());
    }
  });
  return out;
}

void SimJob::checkpoint(const std::string& name) {
  run([&](mpi::Comm& world, Runtime& rt) {
    EXPECT_TRUE(write_checkpoint(rt, world.rank(), name).ok());
    EXPECT_TRUE(rt.finalize().ok());
  });
}

void SimJob::restart_from(const std::string& name) {
  run([&](mpi::Comm& world, Runtime& rt) {
    EXPECT_EQ(restart_and_verify(rt, world.rank()), name);
    EXPECT_TRUE(rt.finalize().ok());
  });
}

void SimJob::lose_node(int n) const {
  std::string node = "/n" + std::to_string(n);
  for (const auto& base : {cache_, cntl_}) {
    ASSERT_TRUE(io::Env::posix().exists(base + node)) << base + node << " was never made";
    ASSERT_TRUE(io::remove_tree(io::Env::posix(), base + node).ok());
  }
}

void SimJob::lose_every_node() const {
  for (int n = 0; n < kRanks; ++n) lose_node(n);
}

std::string file_bytes(const std::string& name, int rank) {
  std::string bytes;
  for (int i = 0; bytes.size() < 3000 + 100 * static_cast<size_t>(rank); ++i)
    bytes += name + "/" + std::to_string(rank) + "/" + std::to_string(i) + ";";
  return bytes;
}


Status write_checkpoint(Runtime& rt, int rank, const std::string& name) {
  SCR_TRY(rt.start_output(name, kFlagCheckpoint));
  auto path = rt.route_file(file_name(name, rank));
  Status written = path.ok() ? io::write_file_atomic(io::Env::posix(), *path, file_bytes(name, rank))
                             : path.status();
  // The phase is completed either way (as invalid when the write failed).
  Status completed = rt.complete_output(written.ok());
  return written.ok() ? completed : written;
}

io::FaultEnv& inject_faults(Runtime& rt) {
  // SimJob::run gave every runtime a FaultEnv.
  return dynamic_cast<io::FaultEnv&>(rt.context().fs());
}

int crash_while_writing(SimJob& job, int n, const std::string& name) {
  std::atomic<int> crashed{0};
  job.run([&](mpi::Comm& world, Runtime& rt) {
    io::FaultEnv& faults = inject_faults(rt);
    ASSERT_TRUE(faults.configure("crash:" + std::to_string(n)).ok());
    (void)write_checkpoint(rt, world.rank(), name);
    if (faults.crashed()) ++crashed;
    // A crashed job calls nothing more.
  });
  return crashed;
}

PrefixIndex load_index(const SimJob& job) {
  auto idx = PrefixIndex::load(io::Env::posix(), job.prefix());
  EXPECT_TRUE(idx.ok()) << idx.status().to_string();
  return idx ? std::move(idx).value() : PrefixIndex();
}

bool flushed(const SimJob& job, const std::string& name) {
  PrefixIndex idx = load_index(job);
  auto id = idx.find_name(name);
  return id && idx.loadable(*id);
}

void write_same_names(const std::map<std::string, std::string>& settings, const std::string& cwd,
                      const std::string& name, char fill) {
  mpi::InProcess(4, 1 << 20).run([&](mpi::Comm& world) {
    auto rt = Runtime::init(config_from(settings, cwd), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    ASSERT_TRUE((*rt)->start_output(name, 1).ok());
    for (const char* f : {"a.dat", "b.dat"}) {
      auto path = (*rt)->route_file("ckpt/r" + std::to_string(world.rank()) + "/" + f);
      ASSERT_TRUE(path.ok()) << path.status().to_string();
      EXPECT_TRUE(io::write_file_atomic(io::Env::posix(), *path, std::string(5000, fill)).ok());
    }
    EXPECT_TRUE((*rt)->complete_output(true).ok());
    EXPECT_TRUE((*rt)->finalize().ok());
  });
}

void expect_same_names(const std::string& prefix, char fill) {
  for (int r = 0; r < 4; ++r)
    for (const char* f : {"a.dat", "b.dat"}) {
      std::string path = prefix + "/ckpt/r" + std::to_string(r) + "/" + f;
      auto bytes = io::read_file(io::Env::posix(), path);
      ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
      EXPECT_EQ(*bytes, std::string(5000, fill)) << path;
    }
  for (const auto& e : std::filesystem::recursive_directory_iterator(prefix))
    EXPECT_FALSE(io::is_temp_name(e.path().filename().string())) << e.path();
}

void leave_killed_copy(const std::string& prefix, int id, int rank, const std::string& rel) {
  // Pid 1 is never a test's: the temporary is no live process's.
  std::string temp = rel + ".tmp.1";
  ASSERT_TRUE(io::write_file_atomic(io::Env::posix(), prefix + "/" + temp, std::string(100, 'x')).ok());
  std::ofstream(deferred_list_path(prefix, id, rank), std::ios::app) << temp << "\n";
}

void expect_offered(const std::map<std::string, std::string>& settings, const std::string& cwd, int ranks,
                    const std::string& name) {
  mpi::InProcess(ranks, 1 << 20).run([&](mpi::Comm& world) {
    auto rt = Runtime::init(config_from(settings, cwd), world);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    bool have = false;
    std::string offered;
    EXPECT_TRUE((*rt)->have_restart(&have, &offered).ok());
    EXPECT_TRUE(have);
    EXPECT_EQ(offered, name);
    EXPECT_TRUE((*rt)->finalize().ok());
  });
}

RestartRead read_every_old_rank(const std::string& name, int writers) {
  return [name, writers](Runtime& rt, int) {
    bool same = true;
    for (int old = 0; old < writers; ++old) {
      auto path = rt.route_file(file_name(name, old));
      auto bytes = path.ok() ? io::read_file(io::Env::posix(), *path, 1 << 20) : Result<std::string>(path.status());
      EXPECT_TRUE(bytes.ok()) << bytes.status().to_string();
      same = same && bytes.ok() && *bytes == file_bytes(name, old);
    }
    return same;
  };
}

std::vector<Status> restart_offered(const std::map<std::string, std::string>& settings, const std::string& cwd,
                                    int ranks, const std::string& name, const RestartRead& read,
                                    const EnvFor& env_for) {
  std::vector<Status> finalized(static_cast<size_t>(ranks), Error(Errc::bad_state, "not finalized"));
  mpi::InProcess(ranks, 1 << 20).run([&](mpi::Comm& world) {
    io::Env* env = env_for ? env_for(world.rank()) : nullptr;
    auto rt = Runtime::init(config_from(settings, cwd), world, env);
    ASSERT_TRUE(rt.ok()) << rt.status().to_string();
    bool have = false;
    std::string offered;
    ASSERT_TRUE((*rt)->have_restart(&have, &offered).ok());
    ASSERT_TRUE(have) << "nothing to restart from";
    EXPECT_EQ(offered, name);
    auto started = (*rt)->start_restart();
    ASSERT_TRUE(started.ok()) << started.status().to_string();
    bool same = read(**rt, world.rank());
    EXPECT_TRUE(same) << "rank " << world.rank() << " read other bytes";
    EXPECT_TRUE((*rt)->complete_restart(same).ok());
    finalized[static_cast<size_t>(world.rank())] = (*rt)->finalize();
  });
  return finalized;
}

}  // namespace scr::rt::testing
