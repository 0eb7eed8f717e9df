#include "io/posix_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

namespace scr::io {
namespace {

// Closing the descriptor releases the lock.
class FlockHeld final : public HeldLock {
 public:
  explicit FlockHeld(int fd) : fd_(fd) {}
  ~FlockHeld() override { ::close(fd_); }
  FlockHeld(const FlockHeld&) = delete;
  FlockHeld& operator=(const FlockHeld&) = delete;

 private:
  int fd_;
};

// The text a holder left in the lock file, without its line end.
std::string holder_text(int fd) {
  std::string text(512, '\0');
  ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text;
}

}  // namespace

Result<std::unique_ptr<HeldLock>> flock_file(const std::string& path, bool wait, const std::string& holder) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return errno_status(errno, "open lock file", path);
  auto held = std::make_unique<FlockHeld>(fd);
  while (::flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    if (err == EINTR) continue;
    if (err == EWOULDBLOCK) {
      std::string other = holder_text(fd);
      return Error(Errc::bad_state, path + " is held by " + (other.empty() ? "another process" : other));
    }
    if (!wait && (err == ENOLCK || err == EOPNOTSUPP || err == ENOSYS))
      return Error(Errc::unsupported, "the file system of " + path + " does not support flock");
    return errno_status(err, "lock", path);
  }
  if (!holder.empty()) {
    std::string text = holder + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) < 0)
      return errno_status(errno, "write lock file", path);
  }
  return std::unique_ptr<HeldLock>(std::move(held));
}

}  // namespace scr::io
