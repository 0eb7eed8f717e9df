// An advisory exclusive lock (flock) on a lock file, held for a scope, for
// read-modify-write cycles on small shared metadata files (the halt file,
// the prefix index) that a running job and an operator command may update
// at the same time, and to keep a second job out of a prefix or a job
// directory. Taken through an io::Env like every other file operation, so a
// fault-injecting Env reaches it too.
#pragma once

#include <memory>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::io {

class FileLock {
 public:
  // Blocks until the lock on `path` (created 0600 if absent) is held.
  static Result<FileLock> acquire(Env& env, const std::string& path);
  // Takes the lock without waiting and writes `holder` (who holds it: host,
  // pid, job) into the file, unless it is empty (a short-lived holder that
  // must leave the file as it was). When another process holds it:
  // Errc::bad_state with the text last written. Where the file system has
  // no flock: Errc::unsupported.
  static Result<FileLock> try_acquire(Env& env, const std::string& path, const std::string& holder);

 private:
  explicit FileLock(std::unique_ptr<HeldLock> held) : held_(std::move(held)) {}
  std::unique_ptr<HeldLock> held_;
};

}  // namespace scr::io
