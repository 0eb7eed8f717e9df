#include "io/file_lock.hpp"

namespace scr::io {

Result<FileLock> FileLock::acquire(Env& env, const std::string& path) {
  SCR_ASSIGN_OR_RETURN(std::unique_ptr<HeldLock> held, env.lock(path, true, ""));
  return FileLock(std::move(held));
}

Result<FileLock> FileLock::try_acquire(Env& env, const std::string& path, const std::string& holder) {
  SCR_ASSIGN_OR_RETURN(std::unique_ptr<HeldLock> held, env.lock(path, false, holder));
  return FileLock(std::move(held));
}

}  // namespace scr::io
