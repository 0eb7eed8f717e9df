#include "io/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "io/env.hpp"

namespace scr::io {

Result<FileLock> FileLock::acquire(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return errno_status(errno, "open lock file", path);
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    ::close(fd);
    return errno_status(err, "lock", path);
  }
  return FileLock(fd);
}

Result<FileLock> FileLock::try_acquire(const std::string& path, const std::string& holder) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return errno_status(errno, "open lock file", path);
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    std::string other(512, '\0');
    ssize_t n = err == EWOULDBLOCK ? ::pread(fd, other.data(), other.size(), 0) : -1;
    ::close(fd);
    if (err == EWOULDBLOCK) {
      other.resize(n > 0 ? static_cast<size_t>(n) : 0);
      while (!other.empty() && (other.back() == '\n' || other.back() == '\0')) other.pop_back();
      return Error(Errc::bad_state, path + " is held by " + (other.empty() ? "another process" : other));
    }
    if (err == ENOLCK || err == EOPNOTSUPP || err == ENOSYS)
      return Error(Errc::unsupported, "the file system of " + path + " does not support flock");
    return errno_status(err, "lock", path);
  }
  if (holder.empty()) return FileLock(fd);
  std::string text = holder + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) < 0) {
    int err = errno;
    ::close(fd);
    return errno_status(err, "write lock file", path);
  }
  return FileLock(fd);
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace scr::io
