#include "runtime/prefix/halt_file.hpp"

#include <chrono>
#include <cstdlib>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/veloc_file.hpp"
#include "runtime/prefix/prefix_index.hpp"
#include "runtime/prefix/scr31/shared_format.hpp"

namespace scr::rt {

std::string halt_path(const std::string& prefix) {
  return io::path::join(prefix_scr_dir(prefix), "halt.scr");
}

// The file is shared with SCR 3.1 and kept in its layout
// (runtime/prefix/scr31/shared_format.hpp); an earlier SCR++'s is read as it is.
Result<kv::Tree> read_halt(io::Env& env, const std::string& prefix) {
  std::string p = halt_path(prefix);
  // Absent, or empty (just created by a lock taker, lock_halt): no
  // condition, as SCR 3.1 reads both.
  if (auto info = env.stat(p); !info || info->size == 0) return kv::Tree();
  io::TreeFormat format;
  SCR_ASSIGN_OR_RETURN(kv::Tree halt, io::read_any_tree(env, p, &format));
  return format == io::TreeFormat::veloc ? scr31::halt_from_shared(halt) : halt;
}

// Rewritten in place, as SCR 3.1 does: its processes hold their lock on the
// file itself (lock_halt), so a new file renamed over it would leave one of
// them writing to the old one.
Status write_halt(io::Env& env, const std::string& prefix, const kv::Tree& halt) {
  SCR_TRY(io::make_dirs(env, prefix_scr_dir(prefix), 0700));
  std::string p = halt_path(prefix);
  if (!env.exists(p)) return io::write_veloc_tree(env, p, scr31::halt_to_shared(halt));
  std::string bytes = kv::veloc::encode(scr31::halt_to_shared(halt));
  SCR_ASSIGN_OR_RETURN(auto file, env.open(p, io::OpenMode::read_write));
  SCR_TRY(file->pwrite(bytes.data(), bytes.size(), 0));
  SCR_TRY(env.truncate(p, bytes.size()));
  SCR_TRY(file->sync());
  return file->close();
}

int64_t allocation_end_time(const Settings& s) {
  if (s.end_time > 0) return s.end_time;
  if (const char* v = std::getenv("SLURM_JOB_END_TIME"))
    if (auto t = str::parse_int(v)) return *t;
  return 0;
}

std::string halt_reason(const kv::Tree& halt, int64_t halt_seconds, int64_t end_time, double now) {
  if (auto reason = halt.value("EXIT_REASON"); reason && !reason->empty())
    return "halt requested: " + *reason;
  if (halt.has("CHECKPOINTS") && halt.int_or("CHECKPOINTS", 1) <= 0)
    return "the requested number of checkpoints was reached";
  if (halt.has("EXIT_AFTER") && now >= static_cast<double>(halt.int_or("EXIT_AFTER", 0)))
    return "the requested exit time (EXIT_AFTER) has passed";
  int64_t secs = halt.has("HALT_SECONDS") ? halt.int_or("HALT_SECONDS", 0) : halt_seconds;
  if (halt.has("EXIT_BEFORE") &&
      now + static_cast<double>(secs) >= static_cast<double>(halt.int_or("EXIT_BEFORE", 0)))
    return "within " + std::to_string(secs) + " s of the requested EXIT_BEFORE time";
  if (secs > 0 && end_time > 0 && now + static_cast<double>(secs) >= static_cast<double>(end_time))
    return "fewer than " + std::to_string(secs) + " s remain in the allocation";
  return "";
}

std::string halt_exit_reason(const kv::Tree& halt, int64_t halt_seconds, int64_t end_time, double now) {
  if (auto reason = halt.value("EXIT_REASON"); reason && !reason->empty()) return *reason;
  int64_t secs = halt.has("HALT_SECONDS") ? halt.int_or("HALT_SECONDS", 0) : halt_seconds;
  if (secs > 0 && end_time > 0 && now + static_cast<double>(secs) >= static_cast<double>(end_time))
    return "TIME_LIMIT";
  if (halt.has("CHECKPOINTS") && halt.int_or("CHECKPOINTS", 1) <= 0) return "NO_CHECKPOINTS_LEFT";
  if (halt.has("EXIT_BEFORE") &&
      now + static_cast<double>(secs) >= static_cast<double>(halt.int_or("EXIT_BEFORE", 0)))
    return "EXIT_BEFORE_TIME";
  if (halt.has("EXIT_AFTER") && now >= static_cast<double>(halt.int_or("EXIT_AFTER", 0)))
    return "EXIT_AFTER_TIME";
  return "";
}

std::string halt_reason_now(const kv::Tree& halt, const Settings& s) {
  double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  return halt_reason(halt, s.halt_seconds, allocation_end_time(s), now);
}

Result<HaltLock> lock_halt(io::Env& env, const std::string& prefix) {
  SCR_TRY(io::make_dirs(env, prefix_scr_dir(prefix), 0700));
  // The file itself, as SCR 3.1's library and scr_halt lock it.
  std::string path = halt_path(prefix);
  bool created = !env.exists(path);
  SCR_ASSIGN_OR_RETURN(io::FileLock lock, io::FileLock::acquire(env, path));
  return HaltLock(std::move(lock), env, std::move(path), created);
}

HaltLock::~HaltLock() {
  if (!created_) return;
  // Still held: nobody can have written between this check and the unlink.
  if (auto info = env_->stat(path_); info && info->size == 0) (void)env_->unlink(path_);
}

}  // namespace scr::rt
