#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "io/env.hpp"
#include "io/file_view.hpp"
#include "io/path.hpp"
#include "io/posix_lock.hpp"

namespace scr::io {

bool FileInfo::is_regular() const { return S_ISREG(mode); }
bool FileInfo::is_dir() const { return S_ISDIR(mode); }
bool FileInfo::is_symlink() const { return S_ISLNK(mode); }

Status errno_status(int err, const std::string& op, const std::string& path) {
  Errc code = Errc::io_error;
  if (err == ENOSPC || err == EDQUOT) code = Errc::no_space;
  else if (err == ENOENT || err == ENOTDIR) code = Errc::not_found;
  else if (err == EACCES || err == EPERM || err == ELOOP) code = Errc::permission;
  std::string why = std::strerror(err);
  if (err == ELOOP) why = "refusing to follow a symbolic link";
  return Error(code, op + " " + path + ": " + why);
}

Status File::pread_exact(void* buf, size_t n, uint64_t offset) {
  auto* p = static_cast<char*>(buf);
  size_t done = 0;
  while (done < n) {
    SCR_ASSIGN_OR_RETURN(size_t got, pread(p + done, n - done, offset + done));
    if (got == 0)
      return Error(Errc::corrupt, path() + " is truncated: wanted " + std::to_string(n) +
                                      " bytes at offset " + std::to_string(offset) + ", got " +
                                      std::to_string(done));
    done += got;
  }
  return Status::Ok();
}

bool Env::exists(const std::string& path) { return stat(path).ok(); }

Result<FileInfo> File::info() { return Error(Errc::unsupported, "stat of an open file " + path()); }
Status File::set_meta(const FileInfo&) { return Error(Errc::unsupported, "metadata of an open file " + path()); }
Status File::truncate(uint64_t) { return Error(Errc::unsupported, "truncate of an open file " + path()); }

namespace {

FileInfo info_from(const struct stat& st) {
  FileInfo info;
  info.size = static_cast<uint64_t>(st.st_size);
  info.mode = st.st_mode;
  info.uid = st.st_uid;
  info.gid = st.st_gid;
  info.atime = st.st_atim;
  info.mtime = st.st_mtim;
  info.ctime = st.st_ctim;
  info.links = static_cast<uint64_t>(st.st_nlink);
  return info;
}

// Owner first: chown may clear set-id bits that chmod then restores. The
// owner is kept only where permitted (root, or already ours). `owner_differs`
// false: the file has that owner already, so neither the chown nor the
// geteuid that decides on it is made (one system call per file of a copy of
// many files).
template <class Chown, class Chmod, class Times>
Status apply_meta(const FileInfo& meta, const std::string& path, bool owner_differs, Chown chown, Chmod chmod,
                  Times times) {
  if (owner_differs && (::geteuid() == 0 || meta.uid == ::geteuid())) {
    if (chown(meta.uid, meta.gid) != 0 && errno != EPERM) return errno_status(errno, "chown", path);
  }
  if (chmod(meta.mode & 07777) != 0) return errno_status(errno, "chmod", path);
  timespec ts[2] = {meta.atime, meta.mtime};
  if (times(ts) != 0) return errno_status(errno, "set times of", path);
  return Status::Ok();
}

}  // namespace

namespace {

class PosixFile final : public File {
 public:
  // `opened`: the stat taken when a file was opened for reading, answered
  // by info() without another system call. `owner_mode`: owner and mode at
  // open, so that set_meta changes only what differs; absent for a file just
  // created with O_EXCL, which set_meta then looks at once, when it needs to.
  PosixFile(int fd, std::string path, std::optional<FileInfo> opened, std::optional<struct stat> owner_mode)
      : fd_(fd), path_(std::move(path)), opened_(std::move(opened)), at_open_(owner_mode) {}
  ~PosixFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Result<size_t> pread(void* buf, size_t n, uint64_t offset) override {
    for (;;) {
      ssize_t r = ::pread(fd_, buf, n, static_cast<off_t>(offset));
      if (r >= 0) return static_cast<size_t>(r);
      if (errno != EINTR) return errno_status(errno, "read", path_);
    }
  }

  Status pwrite(const void* buf, size_t n, uint64_t offset) override {
    as_set_.reset();  // the size (and times) are no longer what set_meta left
    const char* p = static_cast<const char*>(buf);
    size_t done = 0;
    while (done < n) {
      ssize_t r = ::pwrite(fd_, p + done, n - done, static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return errno_status(errno, "write", path_);
      }
      if (r == 0) return errno_status(EIO, "write", path_);
      done += static_cast<size_t>(r);
    }
    return Status::Ok();
  }

  Status sync() override {
    if (::fsync(fd_) != 0) return errno_status(errno, "fsync", path_);
    return Status::Ok();
  }

  Status truncate(uint64_t size) override {
    as_set_.reset();
    opened_.reset();
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) return errno_status(errno, "truncate", path_);
    return Status::Ok();
  }

  Status close() override {
    if (fd_ < 0) return Status::Ok();
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return errno_status(errno, "close", path_);
    return Status::Ok();
  }

  Result<uint64_t> size() override {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return errno_status(errno, "stat", path_);
    return static_cast<uint64_t>(st.st_size);
  }

  const std::string& path() const override { return path_; }

  Result<std::unique_ptr<FileView>> view(uint64_t offset, size_t n) override {
    return map_range(fd_, path_, offset, n);
  }

  Result<FileInfo> info() override {
    if (opened_) return *opened_;
    if (as_set_) return *as_set_;
    struct stat st {};
    if (::fstat(fd_, &st) != 0) return errno_status(errno, "stat", path_);
    return info_from(st);
  }

  // Owner and mode are changed only where they differ from what they were at
  // open (a file just created usually has the right owner already): two
  // system calls saved per file of a checkpoint of many files. What the file
  // is left with is kept for info(): the copy of a fetched file describes
  // itself from it, without a second fstat after this one.
  Status set_meta(const FileInfo& meta) override {
    as_set_.reset();
    // Looked at here, after the writes (a copy sets its metadata last): its
    // size is then the final one, and info() can answer from it below.
    const bool looked_now = !at_open_;
    if (looked_now) {
      struct stat st {};
      if (::fstat(fd_, &st) != 0) return errno_status(errno, "stat", path_);
      at_open_ = st;
    }
    const struct stat& was = *at_open_;
    bool owner_differs = meta.uid != was.st_uid || meta.gid != was.st_gid;
    bool chowned = false;  // a chown may clear set-id bits: then chmod anyway
    bool chmodded = false;
    FileInfo left = info_from(was);
    Status st = apply_meta(
        meta, path_, owner_differs,
        [&](uid_t u, gid_t g) {
          if (::fchown(fd_, u, g) != 0) return -1;
          chowned = true;
          left.uid = u;
          left.gid = g;
          return 0;
        },
        [&](mode_t m) {
          if (!chowned && m == (was.st_mode & 07777)) return 0;
          chmodded = true;
          return ::fchmod(fd_, m);
        },
        [&](const timespec* ts) { return ::futimens(fd_, ts); });
    if (!st.ok()) return st;
    if (chmodded) left.mode = (was.st_mode & S_IFMT) | (meta.mode & 07777);
    left.atime = meta.atime;
    left.mtime = meta.mtime;
    // Only the fstat made just now knows the current size (one made at open
    // does not); a later write forgets this again.
    if (looked_now) as_set_ = left;
    return st;
  }

 private:
  int fd_;
  std::string path_;
  std::optional<FileInfo> opened_;
  std::optional<struct stat> at_open_;
  std::optional<FileInfo> as_set_;  // what set_meta left, while no write followed
};

// Opens `name` relative to directory `at` (AT_FDCWD: a full path); `path`
// is the full path, for the File and its messages.
Result<std::unique_ptr<File>> open_at(int at, const char* name, const std::string& path, OpenMode mode,
                                      uint32_t perms) {
  // O_NONBLOCK: a FIFO planted where a file is expected would otherwise
  // block open() until some writer shows up. It is cleared again below; for
  // regular files it changes nothing.
  int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  switch (mode) {
    case OpenMode::read: flags |= O_RDONLY; break;
    case OpenMode::create: flags |= O_WRONLY | O_CREAT | O_TRUNC; break;
    case OpenMode::create_excl: flags |= O_WRONLY | O_CREAT | O_EXCL; break;
    case OpenMode::read_write: flags |= O_RDWR; break;
    case OpenMode::append: flags |= O_WRONLY | O_CREAT | O_APPEND; break;
  }
  int fd = ::openat(at, name, flags, static_cast<mode_t>(perms));
  if (fd < 0) return errno_status(errno, "open", path);
  // O_CREAT | O_EXCL made a new regular file (it fails on anything already
  // there, a symlink or FIFO included): there is nothing to check, and its
  // owner and mode are looked up only if set_meta needs them. One fstat saved
  // per file copied or rebuilt.
  if (mode == OpenMode::create_excl)
    return std::unique_ptr<File>(std::make_unique<PosixFile>(fd, path, std::nullopt, std::nullopt));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return errno_status(err, "open", path);
  }
  std::optional<FileInfo> opened;
  if (mode == OpenMode::read) {
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return Error(Errc::invalid_argument, "open " + path + ": not a regular file");
    }
    opened = info_from(st);
  }
  // A regular file ignores O_NONBLOCK, so it is left set: two fcntl calls
  // saved per file count when a checkpoint has thousands of them.
  if (!S_ISREG(st.st_mode)) {
    int fl = ::fcntl(fd, F_GETFL);
    if (fl == -1 || ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
      int err = errno;
      ::close(fd);
      return errno_status(err, "open", path);
    }
  }
  return std::unique_ptr<File>(std::make_unique<PosixFile>(fd, path, std::move(opened), st));
}

// A directory held by an O_PATH descriptor: enough to look names up from,
// no read access needed, never followed at its own last component.
class PosixDir final : public Dir {
 public:
  PosixDir(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~PosixDir() override { ::close(fd_); }
  const std::string& path() const override { return path_; }
  Result<std::unique_ptr<File>> open(const std::string& name, OpenMode mode, uint32_t perms) override {
    SCR_TRY(check_relative(name));
    return open_at(fd_, name.c_str(), path::join(path_, name), mode, perms);
  }
  Result<FileInfo> stat(const std::string& name) override {
    SCR_TRY(check_relative(name));
    struct stat st {};
    if (::fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
      return errno_status(errno, "stat", path::join(path_, name));
    return info_from(st);
  }

 private:
  int fd_;
  std::string path_;

  // An absolute name would be looked up from the root, not from here.
  Status check_relative(const std::string& name) const {
    if (name.empty() || name.front() == '/')
      return Error(Errc::invalid_argument, "'" + name + "' is not a name below " + path_);
    return Status::Ok();
  }
};

class PosixEnv final : public Env {
 private:
  // `call` on directory `path`, opened for it; the error `ignored` is none.
  static Status through_dir(const std::string& path, const char* what, int (*call)(int), int ignored) {
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno_status(errno, "open directory", path);
    int rc = call(fd);
    int err = errno;
    ::close(fd);
    if (rc != 0 && (ignored == 0 || err != ignored)) return errno_status(err, what, path);
    return Status::Ok();
  }

 public:
  Result<std::unique_ptr<File>> open(const std::string& path, OpenMode mode,
                                     uint32_t perms) override {
    return open_at(AT_FDCWD, path.c_str(), path, mode, perms);
  }

  Result<std::unique_ptr<Dir>> open_dir(const std::string& path) override {
    int fd = ::open(path.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno_status(errno, "open directory", path);
    return std::unique_ptr<Dir>(std::make_unique<PosixDir>(fd, path));
  }

  Result<std::unique_ptr<HeldLock>> lock(const std::string& path, bool wait,
                                         const std::string& holder) override {
    return flock_file(path, wait, holder);
  }

  Result<FileInfo> stat(const std::string& path) override {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return errno_status(errno, "stat", path);
    return info_from(st);
  }

  Status rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return errno_status(errno, "rename " + from + " to", to);
    return Status::Ok();
  }

  Status unlink(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return errno_status(errno, "delete", path);
    return Status::Ok();
  }

  Status mkdir(const std::string& path, uint32_t perms) override {
    if (::mkdir(path.c_str(), static_cast<mode_t>(perms)) != 0) return errno_status(errno, "mkdir", path);
    return Status::Ok();
  }

  Status rmdir(const std::string& path) override {
    if (::rmdir(path.c_str()) != 0) return errno_status(errno, "rmdir", path);
    return Status::Ok();
  }

  Result<std::vector<std::string>> list_dir(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return errno_status(errno, "list", path);
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
      int err = errno;
      ::close(fd);
      return errno_status(err, "list", path);
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(dir)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(std::move(name));
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
  }

  // EINVAL: a file system that cannot sync a directory has nothing to sync.
  Status sync_dir(const std::string& path) override {
    return through_dir(path, "fsync directory", ::fsync, EINVAL);
  }

  Status sync_fs(const std::string& path) override {
    return through_dir(path, "sync the file system of", ::syncfs, 0);
  }

  Status truncate(const std::string& path, uint64_t size) override {
    if (::truncate(path.c_str(), static_cast<off_t>(size)) != 0)
      return errno_status(errno, "truncate", path);
    return Status::Ok();
  }

  Status set_meta(const std::string& path, const FileInfo& meta) override {
    const char* p = path.c_str();
    return apply_meta(
        meta, path, true, [&](uid_t u, gid_t g) { return ::lchown(p, u, g); }, [&](mode_t m) { return ::chmod(p, m); },
        [&](const timespec* ts) { return ::utimensat(AT_FDCWD, p, ts, AT_SYMLINK_NOFOLLOW); });
  }
};

}  // namespace

Env& Env::posix() {
  static PosixEnv env;
  return env;
}

}  // namespace scr::io
