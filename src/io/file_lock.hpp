// An advisory exclusive lock (flock) on a lock file, held for a scope, for
// read-modify-write cycles on small shared metadata files (the halt file)
// that a running job and an operator command may update at the same time.
#pragma once

#include <string>

#include "common/status.hpp"

namespace scr::io {

class FileLock {
 public:
  // Blocks until the lock on `path` (created 0600 if absent) is held.
  static Result<FileLock> acquire(const std::string& path);
  // Takes the lock without waiting and writes `holder` (who holds it: host,
  // pid, job) into the file, unless it is empty (a short-lived holder that
  // must leave the file as it was). When another process holds it:
  // Errc::bad_state with the text last written. Where the file system has
  // no flock: Errc::unsupported.
  static Result<FileLock> try_acquire(const std::string& path, const std::string& holder);
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace scr::io
