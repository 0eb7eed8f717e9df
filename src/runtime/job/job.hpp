// What SCR_Init settles for the whole run and nothing changes afterwards:
// the settings, who this process is, its communicators, its file system,
// its control directory and the locks that keep other jobs out. The runtime
// builds one during SCR_Init; every module after that takes it read-only,
// with the one service of the run state it changes.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "io/env.hpp"
#include "io/file_lock.hpp"
#include "mpi/comm.hpp"
#include "runtime/config/settings.hpp"
#include "runtime/prefix/identity.hpp"

namespace scr::rt {

struct Job {
  Settings settings;
  Identity id;
  mpi::Comm world;
  mpi::Comm node;                // processes sharing this node's storage
  // The file system: PosixEnv, the one a test hands to Runtime::init, or
  // the fault-injecting one SCR_FAULT_INJECT asks for (owned below).
  io::Env* env = nullptr;
  std::unique_ptr<io::Env> owned_env;
  std::string cntl_dir;          // this node's control directory of the job
  // Held from SCR_Init to the end of the process: one job per prefix (rank
  // 0) and per job directory (the first process of each node).
  std::optional<io::FileLock> prefix_lock;
  std::optional<io::FileLock> job_lock;

  int rank() const { return world.rank(); }
  int ranks() const { return world.size(); }
  io::Env& fs() const { return *env; }
  // Cache directory of this node for a store.
  std::string cache_dir(const std::string& store) const { return job_dir(store, id); }
};

}  // namespace scr::rt
