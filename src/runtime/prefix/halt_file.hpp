// The halt file <prefix>/.scr/halt.scr, written by scr_halt and by
// SCR_Finalize, read by a job's rank 0 (runtime/halt.hpp) and the tools.
//   EXIT_REASON  = text       halt now (scr_halt --immediate, or a reason)
//   CHECKPOINTS  = n          halt after n more checkpoints complete
//   EXIT_BEFORE  = epoch s    halt when fewer than HALT_SECONDS remain before it
//   EXIT_AFTER   = epoch s    halt once this time has passed
//   HALT_SECONDS = s          overrides SCR_HALT_SECONDS
//   FINALIZED    = job id     set by SCR_Finalize: the job finished; a
//                             launcher must not start another run
// The allocation's end time (SCR_END_TIME, or SLURM_JOB_END_TIME) with
// SCR_HALT_SECONDS also halts.
// Part of the prefix store: no communicator, so the tools use it as the
// runtime does.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/file_lock.hpp"
#include "kvtree/tree.hpp"
#include "runtime/config/settings.hpp"

namespace scr::rt {

std::string halt_path(const std::string& prefix);
Result<kv::Tree> read_halt(io::Env& env, const std::string& prefix);
Status write_halt(io::Env& env, const std::string& prefix, const kv::Tree& halt);
// Read, edit and write the halt file under an exclusive lock on the file
// itself (flock, as SCR 3.1 takes it), so a job counting down CHECKPOINTS
// and an operator's scr_halt, SCR++'s or SCR 3.1's, never lose each other's
// change. An empty result deletes the file. edit: Status(kv::Tree&).
template <class F>
Status update_halt(io::Env& env, const std::string& prefix, F&& edit);

// Why this job should stop now, or empty. Pure: callers supply the time.
std::string halt_reason(const kv::Tree& halt, int64_t halt_seconds, int64_t end_time, double now);
// The same at this moment, with the settings' SCR_HALT_SECONDS and the
// allocation's end time.
std::string halt_reason_now(const kv::Tree& halt, const Settings& s);

// SCR 3.1's name for what halts the job, as its library records it in
// EXIT_REASON when SCR_HALT_EXIT ends the job: a reason already in the file
// stays (SCR's halt file keeps the file's reason over the job's), else the
// first that holds of TIME_LIMIT, NO_CHECKPOINTS_LEFT, EXIT_BEFORE_TIME and
// EXIT_AFTER_TIME; empty when none holds. Pure, as halt_reason.
std::string halt_exit_reason(const kv::Tree& halt, int64_t halt_seconds, int64_t end_time, double now);

// Allocation end time in epoch seconds from SCR_END_TIME or the resource
// manager, 0 when unknown.
int64_t allocation_end_time(const Settings& s);

// The lock on the halt file (lock_halt). Taking it creates the file, empty,
// when there is none; releasing it removes that file again if nothing was
// written to it, so "no file" keeps meaning "no condition".
class HaltLock {
 public:
  HaltLock(io::FileLock lock, io::Env& env, std::string path, bool created)
      : lock_(std::move(lock)), env_(&env), path_(std::move(path)), created_(created) {}
  HaltLock(HaltLock&& o) noexcept
      : lock_(std::move(o.lock_)), env_(o.env_), path_(std::move(o.path_)), created_(o.created_) {
    o.created_ = false;
  }
  HaltLock& operator=(HaltLock&&) = delete;
  ~HaltLock();

 private:
  io::FileLock lock_;
  io::Env* env_;
  std::string path_;
  bool created_;
};
Result<HaltLock> lock_halt(io::Env& env, const std::string& prefix);

template <class F>
Status update_halt(io::Env& env, const std::string& prefix, F&& edit) {
  SCR_ASSIGN_OR_RETURN(HaltLock lock, lock_halt(env, prefix));
  SCR_ASSIGN_OR_RETURN(kv::Tree halt, read_halt(env, prefix));
  SCR_TRY(edit(halt));
  if (!halt.empty()) return write_halt(env, prefix, halt);
  Status st = env.unlink(halt_path(prefix));
  return st.code() == Errc::not_found ? Status::Ok() : st;
}

}  // namespace scr::rt
